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

/**
 * Every port this package implements on one database, for a composition root: the backend's
 * container and any application that wires the core to PostgreSQL or PGlite. `brokerConnected`
 * lets the job-queue health report say whether the broker answers.
 */
export function mikroOrmRepositories(orm: MikroORM, options: { brokerConnected?: () => Promise<boolean> } = {}) {
  return {
    users: new MikroOrmUsers(orm),
    refreshSessions: new MikroOrmRefreshSessions(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    settings: new MikroOrmSettings(orm),
    tx: new MikroOrmTransaction(orm),
    helps: new MikroOrmHelps(orm),
    partners: new MikroOrmPartners(orm),
    invoices: new MikroOrmInvoices(orm),
    platformActivity: new MikroOrmPlatformActivity(orm),
    connections: new MikroOrmConnections(orm),
    contacts: new MikroOrmContacts(orm),
    tickets: new MikroOrmTickets(orm),
    messages: new MikroOrmMessages(orm),
    outbox: new MikroOrmOutbox(orm),
    ticketLogs: new MikroOrmTicketLogs(orm),
    tags: new MikroOrmTags(orm),
    jobs: new MikroOrmBackgroundJobs(orm),
    queues: new MikroOrmQueues(orm),
    queueOptions: new MikroOrmQueueOptions(orm),
    queueIntegrations: new MikroOrmQueueIntegrations(orm),
    jobHealth: new MikroOrmJobQueueHealth(orm, options.brokerConnected),
  };
}
