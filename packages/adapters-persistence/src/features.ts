import type { EntitySchema, MikroORM } from '@mikro-orm/core';
import { ANNOUNCEMENT_SCHEMAS } from './announcements/schema.js';
import { M0018Announcements } from './announcements/m0018-announcements.js';
import { announcementsRepositories } from './announcements/repository.js';
import { BILLING_SCHEMAS } from './billing/schema.js';
import { M0031Billing } from './billing/m0031-billing.js';
import { billingRepositories } from './billing/repository.js';
import { BIZCHAT_SCHEMAS } from './bizchat/schema.js';
import { M0033BizchatTemplates } from './bizchat/m0033-bizchat-templates.js';
import { bizchatRepositories } from './bizchat/repository.js';
import { CAMPAIGN_SCHEMAS } from './campaigns/schema.js';
import { M0015Campaigns } from './campaigns/m0015-campaigns.js';
import { campaignsRepositories } from './campaigns/repository.js';
import { MikroOrmCampaignReferences } from './campaigns/references.js';
import { CATALOG_SCHEMAS } from './catalog/schema.js';
import { M0026Catalog } from './catalog/m0026-catalog.js';
import { catalogRepositories } from './catalog/repository.js';
import { CHAT_SCHEMAS } from './chats/schema.js';
import { M0019InternalChats } from './chats/m0019-internal-chats.js';
import { chatsRepositories } from './chats/repository.js';
import { MikroOrmHelps, MikroOrmInvoices, MikroOrmPartners, MikroOrmPlatformActivity } from './company-api/repository.js';
import { COMPANY_TEMPLATE_SCHEMAS } from './company-templates/schema.js';
import { M0030TemplatesSellers } from './company-templates/m0030-templates-sellers.js';
import { companyTemplatesRepositories } from './company-templates/repository.js';
import { CONTACT_LIST_SCHEMAS } from './contact-lists/schema.js';
import { M0014ContactLists } from './contact-lists/m0014-contact-lists.js';
import { M0016ContactListJobs } from './contact-lists/m0016-contact-list-jobs.js';
import { contactListsRepositories } from './contact-lists/repository.js';
import { MikroOrmContactListUsage } from './contact-lists/usage.js';
import { CONTACT_SELLER_SCHEMAS } from './contact-sellers/schema.js';
import { contactSellersRepositories } from './contact-sellers/repository.js';
import { MikroOrmContacts } from './contacts/repository.js';
import { dashboardsRepositories, MikroOrmTicketCycles } from './dashboards/repository.js';
import { FILE_LIST_SCHEMAS } from './files/schema.js';
import { M0022FileLists } from './files/m0022-file-lists.js';
import { filesRepositories } from './files/repository.js';
import { FLOW_SCHEMAS } from './flows/schema.js';
import { M0029Flows } from './flows/m0029-flows.js';
import { M0032FlowRuns } from './flows/m0032-flow-runs.js';
import { flowsRepositories } from './flows/repository.js';
import { M0039PasswordResets } from './identity/m0039-password-resets.js';
import { PasswordResetSchema, passwordResetsRepositories } from './identity/password-resets.js';
import { MikroOrmRefreshSessions, MikroOrmUsers } from './identity/repository.js';
import { MikroOrmConnections } from './messaging/connections-repository.js';
import { MikroOrmIdempotencyKeys } from './messaging/idempotency-repository.js';
import { IdempotencyKeySchema, OutboxHandlingSchema } from './messaging/idempotency-schema.js';
import { M0012IdempotencyKeys } from './messaging/m0012-idempotency-keys.js';
import { MikroOrmMessageContextReads } from './messaging/message-context-reads-repository.js';
import { MikroOrmMessages } from './messaging/messages-repository.js';
import { MikroOrmOutbox } from './messaging/outbox-repository.js';
import { MikroOrmTicketLogs } from './messaging/ticket-log-repository.js';
import { MikroOrmTickets } from './messaging/tickets-repository.js';
import { BACKEND_MIGRATIONS } from './migrations/index.js';
import { OBJSTORE_SCHEMAS } from './objstore/schema.js';
import { M0028Objstore } from './objstore/m0028-objstore.js';
import { objstoreRepositories } from './objstore/repository.js';
import { ORDER_SCHEMAS } from './orders/schema.js';
import { M0027Orders } from './orders/m0027-orders.js';
import { ordersRepositories } from './orders/repository.js';
import { PROMPT_SCHEMAS } from './prompts/schema.js';
import { M0023Prompts } from './prompts/m0023-prompts.js';
import { promptsRepositories } from './prompts/repository.js';
import { PROXY_SCHEMAS } from './proxies/schema.js';
import { M0024Proxies } from './proxies/m0024-proxies.js';
import { M0035ProxyUnchecked } from './proxies/m0035-proxy-unchecked.js';
import { proxiesRepositories } from './proxies/repository.js';
import { MikroOrmJobQueueHealth, type DependencyChecks } from './queues/job-queue-health.js';
import { MikroOrmQueueIntegrations, MikroOrmQueueOptions, MikroOrmQueues } from './queues/repository.js';
import { SCHEDULE_SCHEMAS } from './schedules/schema.js';
import { M0017Schedules } from './schedules/m0017-schedules.js';
import { schedulesRepositories } from './schedules/repository.js';
import { BACKEND_SCHEMAS } from './schemas.js';
import { MikroOrmSettings } from './settings/repository.js';
import { MikroOrmBackgroundJobs } from './shared/background-jobs.js';
import { MikroOrmTransaction } from './shared/transaction.js';
import { MikroOrmTags } from './tags/repository.js';
import { MikroOrmCompanies, MikroOrmPlans } from './tenancy/repository.js';
import { TRANSCRIPTION_SCHEMAS } from './transcription/schema.js';
import { M0021Transcription } from './transcription/m0021-transcription.js';
import { transcriptionRepositories } from './transcription/repository.js';

/** A migration as the migrator lists it. */
export interface NamedMigration {
  readonly name: string;
  readonly class: new (...args: any[]) => any;
}
/** What one feature adds to the database: its entities and the migrations that create their tables. */
export interface FeatureTables {
  readonly entities: readonly EntitySchema<any>[];
  readonly migrations: readonly NamedMigration[];
}
/** One feature's part of this package: the adapters of its ports on one database, and the tables it adds. */
export interface PersistenceFeature<R extends object = object> extends FeatureTables {
  repositories(orm: MikroORM, options?: DependencyChecks): R;
}

/** Declares a feature's persistence, keeping the types of its repositories. */
function persistence<R extends object>(
  repositories: (orm: MikroORM, options?: DependencyChecks) => R,
  tables: Partial<FeatureTables> = {},
): PersistenceFeature<R> {
  return { repositories, entities: tables.entities ?? [], migrations: tables.migrations ?? [] };
}

/**
 * Every feature's persistence, listed once: its repositories and the tables it adds on top of the
 * released history (`BACKEND_SCHEMAS`/`BACKEND_MIGRATIONS`, where a feature without `tables` has
 * its own). The backend's feature modules take their entry (`PERSISTENCE_FEATURES.schedules`);
 * `mikroOrmRepositories` and `completeSchema` are all of them.
 */
export const PERSISTENCE_FEATURES = {
  /** The unit-of-work ports every feature shares: transactions and after-request work. */
  platform: persistence((orm) => ({ tx: new MikroOrmTransaction(orm), jobs: new MikroOrmBackgroundJobs(orm) })),
  identity: persistence((orm) => ({ users: new MikroOrmUsers(orm), refreshSessions: new MikroOrmRefreshSessions(orm) })),
  passwordResets: persistence(passwordResetsRepositories, {
    entities: [PasswordResetSchema],
    migrations: [{ name: 'm0039-password-resets', class: M0039PasswordResets }],
  }),
  tenancy: persistence((orm) => ({ companies: new MikroOrmCompanies(orm), plans: new MikroOrmPlans(orm) })),
  settings: persistence((orm) => ({ settings: new MikroOrmSettings(orm) })),
  companyApi: persistence((orm) => ({
    helps: new MikroOrmHelps(orm),
    partners: new MikroOrmPartners(orm),
    invoices: new MikroOrmInvoices(orm),
    platformActivity: new MikroOrmPlatformActivity(orm),
  })),
  messaging: persistence(
    (orm) => ({
      connections: new MikroOrmConnections(orm),
      tickets: new MikroOrmTickets(orm),
      messages: new MikroOrmMessages(orm),
      outbox: new MikroOrmOutbox(orm),
      ticketLogs: new MikroOrmTicketLogs(orm),
      messageContextReads: new MikroOrmMessageContextReads(orm),
      // Attendance cycles: their table comes with m0020 (released with the backend's history).
      ticketTracking: new MikroOrmTicketCycles(orm),
      idempotencyKeys: new MikroOrmIdempotencyKeys(orm),
    }),
    { entities: [IdempotencyKeySchema, OutboxHandlingSchema], migrations: [{ name: 'm0012-idempotency-keys', class: M0012IdempotencyKeys }] },
  ),
  contacts: persistence((orm) => ({ contacts: new MikroOrmContacts(orm) })),
  tags: persistence((orm) => ({ tags: new MikroOrmTags(orm) })),
  /** `brokerConnected` and `cacheConnected` let the health report say whether the broker and the cache answer. */
  queues: persistence((orm, options: DependencyChecks = {}) => ({
    queues: new MikroOrmQueues(orm),
    queueOptions: new MikroOrmQueueOptions(orm),
    queueIntegrations: new MikroOrmQueueIntegrations(orm),
    jobHealth: new MikroOrmJobQueueHealth(orm, options),
  })),
  /** Which campaigns use a list comes from the campaigns' table (m0015), which the campaigns feature brings. */
  contactLists: persistence((orm) => ({ ...contactListsRepositories(orm), contactListUsage: new MikroOrmContactListUsage(orm) }), {
    entities: CONTACT_LIST_SCHEMAS,
    migrations: [
      { name: 'm0014-contact-lists', class: M0014ContactLists },
      { name: 'm0016-contact-list-jobs', class: M0016ContactListJobs },
    ],
  }),
  campaigns: persistence((orm) => ({ ...campaignsRepositories(orm), campaignReferences: new MikroOrmCampaignReferences(orm) }), {
    entities: CAMPAIGN_SCHEMAS,
    migrations: [{ name: 'm0015-campaigns', class: M0015Campaigns }],
  }),
  chats: persistence(chatsRepositories, { entities: CHAT_SCHEMAS, migrations: [{ name: 'm0019-internal-chats', class: M0019InternalChats }] }),
  announcements: persistence(announcementsRepositories, {
    entities: ANNOUNCEMENT_SCHEMAS,
    migrations: [{ name: 'm0018-announcements', class: M0018Announcements }],
  }),
  schedules: persistence(schedulesRepositories, { entities: SCHEDULE_SCHEMAS, migrations: [{ name: 'm0017-schedules', class: M0017Schedules }] }),
  prompts: persistence(promptsRepositories, { entities: PROMPT_SCHEMAS, migrations: [{ name: 'm0023-prompts', class: M0023Prompts }] }),
  proxies: persistence(proxiesRepositories, {
    entities: PROXY_SCHEMAS,
    migrations: [
      { name: 'm0024-proxies', class: M0024Proxies },
      { name: 'm0035-proxy-unchecked', class: M0035ProxyUnchecked },
    ],
  }),
  billing: persistence(billingRepositories, { entities: BILLING_SCHEMAS, migrations: [{ name: 'm0031-billing', class: M0031Billing }] }),
  transcription: persistence(transcriptionRepositories, {
    entities: TRANSCRIPTION_SCHEMAS,
    migrations: [{ name: 'm0021-transcription', class: M0021Transcription }],
  }),
  files: persistence(filesRepositories, { entities: FILE_LIST_SCHEMAS, migrations: [{ name: 'm0022-file-lists', class: M0022FileLists }] }),
  companyTemplates: persistence(companyTemplatesRepositories, {
    entities: COMPANY_TEMPLATE_SCHEMAS,
    migrations: [{ name: 'm0030-templates-sellers', class: M0030TemplatesSellers }],
  }),
  bizchat: persistence(bizchatRepositories, { entities: BIZCHAT_SCHEMAS, migrations: [{ name: 'm0033-bizchat-templates', class: M0033BizchatTemplates }] }),
  // Its table comes with the company templates' migration (m0030, one release for both).
  contactSellers: persistence(contactSellersRepositories, { entities: CONTACT_SELLER_SCHEMAS }),
  flows: persistence(flowsRepositories, {
    entities: FLOW_SCHEMAS,
    migrations: [
      { name: 'm0029-flows', class: M0029Flows },
      { name: 'm0032-flow-runs', class: M0032FlowRuns },
    ],
  }),
  catalog: persistence(catalogRepositories, { entities: CATALOG_SCHEMAS, migrations: [{ name: 'm0026-catalog', class: M0026Catalog }] }),
  orders: persistence(ordersRepositories, { entities: ORDER_SCHEMAS, migrations: [{ name: 'm0027-orders', class: M0027Orders }] }),
  objstore: persistence(objstoreRepositories, { entities: OBJSTORE_SCHEMAS, migrations: [{ name: 'm0028-objstore', class: M0028Objstore }] }),
  // Their tables come with m0020 (the backend's history).
  dashboards: persistence(dashboardsRepositories),
};

type PersistenceFeatures = typeof PERSISTENCE_FEATURES;
type Merge<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
/** Every repository of every feature, by port name. */
export type AllRepositories = Merge<ReturnType<PersistenceFeatures[keyof PersistenceFeatures]['repositories']>>;

/** A feature's tables alone, to spread into a backend feature module. */
export function tablesOf(f: FeatureTables): { entities: EntitySchema<any>[]; migrations: NamedMigration[] } {
  return { entities: [...f.entities], migrations: [...f.migrations] };
}

/**
 * Every port this package implements on one database, for applications that wire the whole core
 * to PostgreSQL or PGlite at once (the swap-adapters example). The backend takes each feature's
 * part through its module list instead.
 */
export function mikroOrmRepositories(orm: MikroORM, options: DependencyChecks = {}): AllRepositories {
  const all: Record<string, unknown> = {};
  for (const f of Object.values(PERSISTENCE_FEATURES) as PersistenceFeature[]) Object.assign(all, f.repositories(orm, options));
  return all as AllRepositories;
}

/**
 * Every table `mikroOrmRepositories` reads and writes, for applications that wire the whole core to
 * one database (the swap-adapters example): the released history plus every feature's tables.
 */
export function completeSchema(): { entities: EntitySchema<any>[]; migrations: NamedMigration[] } {
  const features = Object.values(PERSISTENCE_FEATURES) as PersistenceFeature[];
  return {
    entities: [...BACKEND_SCHEMAS, ...features.flatMap((f) => f.entities)],
    migrations: [...BACKEND_MIGRATIONS, ...features.flatMap((f) => f.migrations)].sort((a, b) => a.name.localeCompare(b.name)),
  };
}
