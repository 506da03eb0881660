import { describeQueuesContract } from '../contracts/queues-contract.js';
import {
  InMemoryCompanies,
  InMemoryConnections,
  InMemoryContacts,
  InMemoryPlans,
  InMemoryQueueIntegrations,
  InMemoryQueueOptions,
  InMemoryQueues,
  InMemoryTickets,
  InMemoryUsers,
  SerialTransaction,
} from '../../src/testing.js';

describeQueuesContract('in-memory', async () => {
  const users = new InMemoryUsers();
  const contacts = new InMemoryContacts();
  const tickets = new InMemoryTickets(contacts);
  const queueOptions = new InMemoryQueueOptions(tickets);
  const connections = new InMemoryConnections();
  const queues = new InMemoryQueues({ tickets, options: queueOptions, users, connections });
  users.queueMemberships = (companyId, userId) => queues.queueIdsOfUser(companyId, userId);
  return {
    queues,
    queueOptions,
    queueIntegrations: new InMemoryQueueIntegrations(queues),
    users,
    tickets,
    contacts,
    connections,
    companies: new InMemoryCompanies(),
    plans: new InMemoryPlans(),
    tx: new SerialTransaction(),
  };
});
