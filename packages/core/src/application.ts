import type { CompanyRegistry } from './cnpj/lookup-cnpj.js';
import { createCompanyApi, type CompanyApiPorts } from './compose/company-api.js';
import { createContacts, type ContactsPorts } from './compose/contacts.js';
import { createIdentity, type IdentityPorts } from './compose/identity.js';
import { createMessaging, type MessagingPorts } from './compose/messaging.js';
import { createQueues, type QueuePorts } from './compose/queues.js';
import { createSettings, type SettingsPorts } from './compose/settings.js';
import type { BackgroundJobs } from './shared/background-jobs.js';
import type { JobStore } from './jobs/job-store.js';
import type { Jobs } from './jobs/jobs.js';
import { createTags, type TagPorts } from './compose/tags.js';
import { createTenancy, type TenancyPorts } from './compose/tenancy.js';
import { createContactLists, type ContactListPorts } from './compose/contact-lists.js';
import { createCampaigns, type CampaignPorts } from './compose/campaigns.js';
import { createChats, type ChatPorts } from './compose/chats.js';
import { createAnnouncements, type AnnouncementPorts } from './compose/announcements.js';
import { createSchedules, type SchedulePorts } from './compose/schedules.js';
import { createDashboards, type DashboardPorts } from './compose/dashboards.js';
import { createTranscription, type TranscriptionPorts } from './compose/transcription.js';
import { createProxies, type ProxyPorts } from './compose/proxies.js';
import { createPrompts, type PromptPorts } from './compose/prompts.js';
import { createFiles, type FilePorts } from './compose/files.js';
import { createFlows, type FlowPorts } from './compose/flows.js';
import { createCatalog, type CatalogPorts } from './compose/catalog.js';
import { createOrders, type OrderPorts } from './compose/orders.js';
import { createObjstore, type ObjstorePorts } from './compose/objstore.js';
import { createBilling, type BillingPorts } from './compose/billing.js';
import { createCompanyTemplates, type CompanyTemplatePorts } from './compose/company-templates.js';
import { createContactSellers, type ContactSellerPorts } from './compose/contact-sellers.js';
import { createBizchat, type BizchatPorts } from './compose/bizchat.js';

/** Every port the core's features need; a composition root supplies one adapter for each. */
export interface CorePorts
  extends IdentityPorts,
    TenancyPorts,
    SettingsPorts,
    CompanyApiPorts,
    MessagingPorts,
    QueuePorts,
    TagPorts,
    ContactsPorts,
    ContactListPorts,
    CampaignPorts,
    ChatPorts,
    AnnouncementPorts,
    SchedulePorts,
    TranscriptionPorts,
    ProxyPorts,
    DashboardPorts,
    PromptPorts,
    FilePorts,
    FlowPorts,
    ObjstorePorts,
    CatalogPorts,
    OrderPorts,
    CompanyTemplatePorts,
    ContactSellerPorts,
    BillingPorts,
    BizchatPorts {
  readonly companyRegistry: CompanyRegistry;
  /** Runs work after the request that started it (contact imports). */
  readonly jobs: BackgroundJobs;
  /** Where background jobs wait for a runner (claimed in the database). */
  readonly jobStore: JobStore;
  /** Enqueues one-off jobs for a moment (a scheduled send); their handlers are the features' job definitions. */
  readonly jobQueue: Jobs;
}

/**
 * Every use case, one namespace per feature (`app.tags.createTag`), built from the ports. Pure
 * wiring, no I/O. Embedding applications and use-case tests compose the core with this; the
 * backend composes the same per-feature factories through its module list.
 */
export function createApplication(p: CorePorts) {
  return {
    identity: createIdentity(p),
    tenancy: createTenancy(p),
    settings: createSettings(p),
    companyApi: createCompanyApi(p),
    ...createMessaging(p),
    tags: createTags(p),
    contacts: createContacts(p),
    queues: createQueues(p),
    contactLists: createContactLists(p),
    campaigns: createCampaigns(p),
    chats: createChats(p),
    announcements: createAnnouncements(p),
    schedules: createSchedules(p),
    transcription: createTranscription(p),
    proxies: createProxies(p),
    prompts: createPrompts(p),
    files: createFiles(p),
    flows: createFlows(p),
    catalog: createCatalog(p),
    orders: createOrders(p),
    objstore: createObjstore(p),
    billing: createBilling(p),
    companyTemplates: createCompanyTemplates(p),
    contactSellers: createContactSellers(p),
    bizchat: createBizchat(p),
    dashboards: createDashboards(p),
  };
}

export type Application = ReturnType<typeof createApplication>;
