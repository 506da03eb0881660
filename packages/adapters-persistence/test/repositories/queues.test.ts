import { describeQueuesContract } from '@servicedesk/core/contracts/queues-contract';
import {
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmContacts,
  MikroOrmPlans,
  MikroOrmQueueIntegrations,
  MikroOrmQueueOptions,
  MikroOrmQueues,
  MikroOrmTickets,
  MikroOrmTransaction,
  MikroOrmUsers,
  type Database,
} from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    queues: new MikroOrmQueues(orm),
    queueOptions: new MikroOrmQueueOptions(orm),
    queueIntegrations: new MikroOrmQueueIntegrations(orm),
    users: new MikroOrmUsers(orm),
    tickets: new MikroOrmTickets(orm),
    contacts: new MikroOrmContacts(orm),
    connections: new MikroOrmConnections(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    tx: new MikroOrmTransaction(orm),
  };
}

describeOnEachDatabase(fixtureOn, describeQueuesContract);
