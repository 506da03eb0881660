// The test fakes: in-memory repositories, a fixed clock, sequential ids, recording ports and the
// whole in-memory port set. Tests, examples and embedders that want no database import them from
// `@servicedesk/core/testing`; the production entry (`@servicedesk/core`) exports none of them.
// Production in-process transports (broker, cache, realtime fan-out) live in `in-process/` and are
// exported by the production entry.
export * from './in-memory/announcements.js';
export * from './in-memory/background-jobs.js';
export * from './in-memory/billing.js';
export * from './in-memory/bizchat.js';
export * from './in-memory/campaigns.js';
export * from './in-memory/catalog.js';
export * from './in-memory/chats.js';
export * from './in-memory/company-api.js';
export * from './in-memory/company-templates.js';
export * from './in-memory/contact-lists.js';
export * from './in-memory/contact-sellers.js';
export * from './in-memory/dashboards.js';
export * from './in-memory/files.js';
export * from './in-memory/flows.js';
export * from './in-memory/idempotency-keys.js';
export * from './in-memory/identity.js';
export * from './in-memory/messaging.js';
export * from './in-memory/objstore.js';
export * from './in-memory/orders.js';
export * from './in-memory/ports.js';
export * from './in-memory/prompts.js';
export * from './in-memory/proxies.js';
export * from './in-memory/queues.js';
export * from './in-memory/settings.js';
export * from './in-memory/social-accounts.js';
export * from './in-memory/support.js';
export * from './in-memory/table.js';
export * from './in-memory/tags.js';
export * from './in-memory/tenancy.js';
export * from './in-memory/ticket-logs.js';
export * from './in-memory/tokens.js';
export * from './in-memory/transcription.js';
export { InMemoryCampaignPacing } from './campaigns/in-memory-campaign-pacing.js';
export { InMemoryCampaignRecipients } from './campaigns/in-memory-campaign-recipients.js';
export * from './campaigns/in-memory-campaign-sources.js';
export { InMemoryCampaigns } from './campaigns/in-memory-campaigns.js';
export { InMemorySuppressions } from './campaigns/in-memory-suppressions.js';
export * from './jobs/in-memory-job-store.js';
export * from './schedules/in-memory-schedules.js';
