import type { EntitySchema } from '@mikro-orm/core';
import { ANNOUNCEMENT_SCHEMAS } from './announcements/schema.js';
import { M0018Announcements } from './announcements/m0018-announcements.js';
import { CAMPAIGN_SCHEMAS } from './campaigns/schema.js';
import { M0015Campaigns } from './campaigns/m0015-campaigns.js';
import { CHAT_SCHEMAS } from './chats/schema.js';
import { M0019InternalChats } from './chats/m0019-internal-chats.js';
import { CONTACT_LIST_SCHEMAS } from './contact-lists/schema.js';
import { M0014ContactLists } from './contact-lists/m0014-contact-lists.js';
import { M0016ContactListJobs } from './contact-lists/m0016-contact-list-jobs.js';
import { FILE_LIST_SCHEMAS } from './files/schema.js';
import { M0022FileLists } from './files/m0022-file-lists.js';
import { FLOW_SCHEMAS } from './flows/schema.js';
import { M0029Flows } from './flows/m0029-flows.js';
import { M0032FlowRuns } from './flows/m0032-flow-runs.js';
import { CATALOG_SCHEMAS } from './catalog/schema.js';
import { M0026Catalog } from './catalog/m0026-catalog.js';
import { ORDER_SCHEMAS } from './orders/schema.js';
import { M0027Orders } from './orders/m0027-orders.js';
import { OBJSTORE_SCHEMAS } from './objstore/schema.js';
import { M0028Objstore } from './objstore/m0028-objstore.js';
import { COMPANY_TEMPLATE_SCHEMAS } from './company-templates/schema.js';
import { M0030TemplatesSellers } from './company-templates/m0030-templates-sellers.js';
import { BIZCHAT_SCHEMAS } from './bizchat/schema.js';
import { M0033BizchatTemplates } from './bizchat/m0033-bizchat-templates.js';
import { CONTACT_SELLER_SCHEMAS } from './contact-sellers/schema.js';
import { IdempotencyKeySchema, OutboxHandlingSchema } from './messaging/idempotency-schema.js';
import { M0012IdempotencyKeys } from './messaging/m0012-idempotency-keys.js';
import { BACKEND_MIGRATIONS } from './migrations/index.js';
import { PROMPT_SCHEMAS } from './prompts/schema.js';
import { M0023Prompts } from './prompts/m0023-prompts.js';
import { BILLING_SCHEMAS } from './billing/schema.js';
import { M0031Billing } from './billing/m0031-billing.js';
import { PROXY_SCHEMAS } from './proxies/schema.js';
import { M0024Proxies } from './proxies/m0024-proxies.js';
import { M0035ProxyUnchecked } from './proxies/m0035-proxy-unchecked.js';
import { SCHEDULE_SCHEMAS } from './schedules/schema.js';
import { M0017Schedules } from './schedules/m0017-schedules.js';
import { BACKEND_SCHEMAS } from './schemas.js';
import { M0039PasswordResets } from './identity/m0039-password-resets.js';
import { PasswordResetSchema } from './identity/password-resets.js';
import { TRANSCRIPTION_SCHEMAS } from './transcription/schema.js';
import { M0021Transcription } from './transcription/m0021-transcription.js';

/** A migration as the migrator lists it. */
export interface NamedMigration {
  readonly name: string;
  readonly class: new (...args: any[]) => any;
}
/** What one feature adds to the database: its entities and the migrations that create their tables. */
export interface FeatureTables {
  readonly entities: EntitySchema<any>[];
  readonly migrations: NamedMigration[];
}

/**
 * The tables each feature adds on top of the released history (`BACKEND_SCHEMAS`/`BACKEND_MIGRATIONS`),
 * listed once: the backend's feature modules take their part from here, and `completeSchema` all of it.
 */
export const FEATURE_TABLES = {
  messaging: { entities: [IdempotencyKeySchema, OutboxHandlingSchema], migrations: [{ name: 'm0012-idempotency-keys', class: M0012IdempotencyKeys }] },
  contactLists: {
    entities: CONTACT_LIST_SCHEMAS,
    migrations: [
      { name: 'm0014-contact-lists', class: M0014ContactLists },
      { name: 'm0016-contact-list-jobs', class: M0016ContactListJobs },
    ],
  },
  campaigns: { entities: CAMPAIGN_SCHEMAS, migrations: [{ name: 'm0015-campaigns', class: M0015Campaigns }] },
  schedules: { entities: SCHEDULE_SCHEMAS, migrations: [{ name: 'm0017-schedules', class: M0017Schedules }] },
  announcements: { entities: ANNOUNCEMENT_SCHEMAS, migrations: [{ name: 'm0018-announcements', class: M0018Announcements }] },
  chats: { entities: CHAT_SCHEMAS, migrations: [{ name: 'm0019-internal-chats', class: M0019InternalChats }] },
  transcription: { entities: TRANSCRIPTION_SCHEMAS, migrations: [{ name: 'm0021-transcription', class: M0021Transcription }] },
  files: { entities: FILE_LIST_SCHEMAS, migrations: [{ name: 'm0022-file-lists', class: M0022FileLists }] },
  flows: {
    entities: FLOW_SCHEMAS,
    migrations: [
      { name: 'm0029-flows', class: M0029Flows },
      { name: 'm0032-flow-runs', class: M0032FlowRuns },
    ],
  },
  catalog: { entities: CATALOG_SCHEMAS, migrations: [{ name: 'm0026-catalog', class: M0026Catalog }] },
  orders: { entities: ORDER_SCHEMAS, migrations: [{ name: 'm0027-orders', class: M0027Orders }] },
  prompts: { entities: PROMPT_SCHEMAS, migrations: [{ name: 'm0023-prompts', class: M0023Prompts }] },
  billing: { entities: BILLING_SCHEMAS, migrations: [{ name: 'm0031-billing', class: M0031Billing }] },
  proxies: {
    entities: PROXY_SCHEMAS,
    migrations: [
      { name: 'm0024-proxies', class: M0024Proxies },
      { name: 'm0035-proxy-unchecked', class: M0035ProxyUnchecked },
    ],
  },
  objstore: { entities: OBJSTORE_SCHEMAS, migrations: [{ name: 'm0028-objstore', class: M0028Objstore }] },
  companyTemplates: { entities: COMPANY_TEMPLATE_SCHEMAS, migrations: [{ name: 'm0030-templates-sellers', class: M0030TemplatesSellers }] },
  // Its table comes with the company templates' migration (m0030, one release for both).
  contactSellers: { entities: CONTACT_SELLER_SCHEMAS, migrations: [] },
  bizchat: { entities: BIZCHAT_SCHEMAS, migrations: [{ name: 'm0033-bizchat-templates', class: M0033BizchatTemplates }] },
  passwordResets: { entities: [PasswordResetSchema], migrations: [{ name: 'm0039-password-resets', class: M0039PasswordResets }] },
} as const satisfies Record<string, FeatureTables>;

/**
 * Every table `mikroOrmRepositories` reads and writes, for applications that wire the whole core to
 * one database (the swap-adapters example): the released history plus every feature's tables.
 */
export function completeSchema(): FeatureTables {
  const features = Object.values(FEATURE_TABLES) as FeatureTables[];
  return {
    entities: [...BACKEND_SCHEMAS, ...features.flatMap((f) => f.entities)],
    migrations: [...BACKEND_MIGRATIONS, ...features.flatMap((f) => f.migrations)].sort((a, b) => a.name.localeCompare(b.name)),
  };
}
