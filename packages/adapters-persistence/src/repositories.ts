import type { MikroORM } from '@mikro-orm/core';
import { MikroOrmBackgroundJobs } from './shared/background-jobs.js';
import { MikroOrmJobQueueHealth, type DependencyChecks } from './queues/job-queue-health.js';
import { MikroOrmTransaction } from './shared/transaction.js';
import { MikroOrmHelps, MikroOrmInvoices, MikroOrmPartners, MikroOrmPlatformActivity } from './company-api/repository.js';
import { MikroOrmContacts } from './contacts/repository.js';
import { MikroOrmIdempotencyKeys } from './messaging/idempotency-repository.js';
import { MikroOrmConnections } from './messaging/connections-repository.js';
import { MikroOrmMessageContextReads } from './messaging/message-context-reads-repository.js';
import { MikroOrmMessages } from './messaging/messages-repository.js';
import { MikroOrmOutbox } from './messaging/outbox-repository.js';
import { MikroOrmTickets } from './messaging/tickets-repository.js';
import { MikroOrmQueueIntegrations, MikroOrmQueueOptions, MikroOrmQueues } from './queues/repository.js';
import { MikroOrmSettings } from './settings/repository.js';
import { MikroOrmTags } from './tags/repository.js';
import { MikroOrmCompanies, MikroOrmPlans } from './tenancy/repository.js';
import { MikroOrmTicketLogs } from './messaging/ticket-log-repository.js';
import { MikroOrmRefreshSessions, MikroOrmUsers } from './identity/repository.js';
import { passwordResetsRepositories } from './identity/password-resets.js';
import { contactListsRepositories } from './contact-lists/repository.js';
import { MikroOrmContactListUsage } from './contact-lists/usage.js';
import { campaignsRepositories } from './campaigns/repository.js';
import { chatsRepositories } from './chats/repository.js';
import { promptsRepositories } from './prompts/repository.js';
import { proxiesRepositories } from './proxies/repository.js';
import { billingRepositories } from './billing/repository.js';
import { MikroOrmCampaignReferences } from './campaigns/references.js';
import { announcementsRepositories } from './announcements/repository.js';
import { schedulesRepositories } from './schedules/repository.js';
import { transcriptionRepositories } from './transcription/repository.js';
import { filesRepositories } from './files/repository.js';
import { companyTemplatesRepositories } from './company-templates/repository.js';
import { bizchatRepositories } from './bizchat/repository.js';
import { contactSellersRepositories } from './contact-sellers/repository.js';
import { flowsRepositories } from './flows/repository.js';
import { catalogRepositories } from './catalog/repository.js';
import { ordersRepositories } from './orders/repository.js';
import { objstoreRepositories } from './objstore/repository.js';
import { dashboardsRepositories, MikroOrmTicketCycles } from './dashboards/repository.js';

/** The unit-of-work ports every feature shares: transactions and after-request work. */
export const platformRepositories = (orm: MikroORM) => ({ tx: new MikroOrmTransaction(orm), jobs: new MikroOrmBackgroundJobs(orm) });
export const identityRepositories = (orm: MikroORM) => ({ users: new MikroOrmUsers(orm), refreshSessions: new MikroOrmRefreshSessions(orm) });
export const tenancyRepositories = (orm: MikroORM) => ({ companies: new MikroOrmCompanies(orm), plans: new MikroOrmPlans(orm) });
export const settingsRepositories = (orm: MikroORM) => ({ settings: new MikroOrmSettings(orm) });
export const companyApiRepositories = (orm: MikroORM) => ({
  helps: new MikroOrmHelps(orm),
  partners: new MikroOrmPartners(orm),
  invoices: new MikroOrmInvoices(orm),
  platformActivity: new MikroOrmPlatformActivity(orm),
});
export const messagingRepositories = (orm: MikroORM) => ({
  connections: new MikroOrmConnections(orm),
  tickets: new MikroOrmTickets(orm),
  messages: new MikroOrmMessages(orm),
  outbox: new MikroOrmOutbox(orm),
  ticketLogs: new MikroOrmTicketLogs(orm),
  messageContextReads: new MikroOrmMessageContextReads(orm),
  // Attendance cycles: their table comes with m0020 (released with the backend's history).
  ticketTracking: new MikroOrmTicketCycles(orm),
  // Its table comes with the messaging feature's migration m0012.
  idempotencyKeys: new MikroOrmIdempotencyKeys(orm),
});
export const contactsRepositories = (orm: MikroORM) => ({ contacts: new MikroOrmContacts(orm) });
export const tagsRepositories = (orm: MikroORM) => ({ tags: new MikroOrmTags(orm) });
/** `brokerConnected` and `cacheConnected` let the health report say whether the broker and the cache answer. */
export const queuesRepositories = (orm: MikroORM, options: DependencyChecks = {}) => ({
  queues: new MikroOrmQueues(orm),
  queueOptions: new MikroOrmQueueOptions(orm),
  queueIntegrations: new MikroOrmQueueIntegrations(orm),
  jobHealth: new MikroOrmJobQueueHealth(orm, options),
});

/**
 * Every port this package implements on one database, for applications that wire the whole core
 * to PostgreSQL or PGlite at once (the swap-adapters example). The backend takes each feature's
 * part through its module list instead.
 */
export function mikroOrmRepositories(orm: MikroORM, options: DependencyChecks = {}) {
  return {
    ...platformRepositories(orm),
    ...identityRepositories(orm),
    // Its table comes with the password resets' migration m0039.
    ...passwordResetsRepositories(orm),
    ...tenancyRepositories(orm),
    ...settingsRepositories(orm),
    ...companyApiRepositories(orm),
    ...messagingRepositories(orm),
    ...contactsRepositories(orm),
    ...tagsRepositories(orm),
    ...queuesRepositories(orm, options),
    // Their tables come with the contact lists' migrations m0014 and m0016 (and, for the usage, the campaigns' m0015).
    ...contactListsRepositories(orm),
    contactListUsage: new MikroOrmContactListUsage(orm),
    // Their tables come with the campaigns' migration m0015.
    ...campaignsRepositories(orm),
    campaignReferences: new MikroOrmCampaignReferences(orm),
    // Their tables come with the internal chats' migration m0019.
    ...chatsRepositories(orm),
    // Their tables come with the announcements' migration m0018.
    ...announcementsRepositories(orm),
    // Their tables come with the schedules' migration m0017.
    ...schedulesRepositories(orm),
    // Their tables come with migrations m0023 and m0024.
    ...promptsRepositories(orm),
    ...proxiesRepositories(orm),
    // Their tables come with the billing's migration m0031.
    ...billingRepositories(orm),
    // Their tables come with the transcription's migration m0021.
    ...transcriptionRepositories(orm),
    // Its tables come with the file lists' migration m0022.
    ...filesRepositories(orm),
    // Their tables come with the templates and sellers' migration m0030.
    ...companyTemplatesRepositories(orm),
    ...bizchatRepositories(orm),
    ...contactSellersRepositories(orm),
    // Their tables come with the flows' migrations m0029 and m0032.
    ...flowsRepositories(orm),
    // Their tables come with the catalog's migration m0026.
    ...catalogRepositories(orm),
    // Their tables come with the orders' migration m0027.
    ...ordersRepositories(orm),
    // Their tables come with the object stores' migration m0028.
    ...objstoreRepositories(orm),
    // Their tables come with m0020 (the backend's history).
    ...dashboardsRepositories(orm),
  };
}
