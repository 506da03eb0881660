import { describeMessagingContract } from '@servicedesk/core/contracts/messaging-contract';
import {
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmMessageContextReads,
  MikroOrmMessages,
  MikroOrmOutbox,
  MikroOrmPlans,
  MikroOrmTickets,
  MikroOrmTransaction,
  MikroOrmTicketLogs,
  MikroOrmUsers,
  type Database,
} from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    connections: new MikroOrmConnections(orm),
    contacts: new MikroOrmContacts(orm),
    tickets: new MikroOrmTickets(orm),
    messages: new MikroOrmMessages(orm),
    outbox: new MikroOrmOutbox(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    users: new MikroOrmUsers(orm),
    ticketLogs: new MikroOrmTicketLogs(orm),
    contextReads: new MikroOrmMessageContextReads(orm),
    tx: new MikroOrmTransaction(orm),
    rollsBack: true,
  };
}

describeOnEachDatabase(fixtureOn, describeMessagingContract);
