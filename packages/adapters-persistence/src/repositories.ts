import type { MikroORM } from '@mikro-orm/core';
import { MikroOrmBackgroundJobs } from './mikro-orm-background-jobs.js';
import { MikroOrmJobQueueHealth } from './mikro-orm-job-queue-health.js';
import { MikroOrmTransaction } from './mikro-orm-transaction.js';
import { MikroOrmHelps, MikroOrmInvoices, MikroOrmPartners, MikroOrmPlatformActivity } from './repositories/mikro-orm-company-api.js';
import { MikroOrmContacts } from './repositories/mikro-orm-contacts.js';
import { MikroOrmConnections, MikroOrmMessages, MikroOrmOutbox, MikroOrmTickets } from './repositories/mikro-orm-messaging.js';
import { MikroOrmQueueIntegrations, MikroOrmQueueOptions, MikroOrmQueues } from './repositories/mikro-orm-queues.js';
import { MikroOrmSettings } from './repositories/mikro-orm-settings.js';
import { MikroOrmTags } from './repositories/mikro-orm-tags.js';
import { MikroOrmCompanies, MikroOrmPlans } from './repositories/mikro-orm-tenancy.js';
import { MikroOrmTicketLogs } from './repositories/mikro-orm-ticket-logs.js';
import { MikroOrmRefreshSessions, MikroOrmUsers } from './repositories/mikro-orm-users.js';

/** The unit-of-work ports every feature shares: transactions and after-request work. */
export const platformRepositories = (orm: MikroORM) => ({ tx: new MikroOrmTransaction(orm), jobs: new MikroOrmBackgroundJobs(orm) });
export const identityRepositories = (orm: MikroORM) => ({ users: new MikroOrmUsers(orm), refreshSessions: new MikroOrmRefreshSessions(orm) });
export const tenancyRepositories = (orm: MikroORM) => ({ companies: new MikroOrmCompanies(orm), plans: new MikroOrmPlans(orm) });
export const settingsRepositories = (orm: MikroORM) => ({ settings: new MikroOrmSettings(orm) });
export const companyApiRepositories = (orm: MikroORM) => ({
  helps: new MikroOrmHelps(orm), partners: new MikroOrmPartners(orm), invoices: new MikroOrmInvoices(orm), platformActivity: new MikroOrmPlatformActivity(orm),
});
export const messagingRepositories = (orm: MikroORM) => ({
  connections: new MikroOrmConnections(orm), tickets: new MikroOrmTickets(orm), messages: new MikroOrmMessages(orm),
  outbox: new MikroOrmOutbox(orm), ticketLogs: new MikroOrmTicketLogs(orm),
});
export const contactsRepositories = (orm: MikroORM) => ({ contacts: new MikroOrmContacts(orm) });
export const tagsRepositories = (orm: MikroORM) => ({ tags: new MikroOrmTags(orm) });
/** `brokerConnected` lets the job-queue health report say whether the broker answers. */
export const queuesRepositories = (orm: MikroORM, options: { brokerConnected?: () => Promise<boolean> } = {}) => ({
  queues: new MikroOrmQueues(orm), queueOptions: new MikroOrmQueueOptions(orm), queueIntegrations: new MikroOrmQueueIntegrations(orm),
  jobHealth: new MikroOrmJobQueueHealth(orm, options.brokerConnected),
});

/**
 * Every port this package implements on one database, for applications that wire the whole core
 * to PostgreSQL or PGlite at once (the swap-adapters example). The backend takes each feature's
 * part through its module list instead.
 */
export function mikroOrmRepositories(orm: MikroORM, options: { brokerConnected?: () => Promise<boolean> } = {}) {
  return {
    ...platformRepositories(orm), ...identityRepositories(orm), ...tenancyRepositories(orm), ...settingsRepositories(orm),
    ...companyApiRepositories(orm), ...messagingRepositories(orm), ...contactsRepositories(orm), ...tagsRepositories(orm),
    ...queuesRepositories(orm, options),
  };
}
