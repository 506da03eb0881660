import { describeMessagingContract } from '../contracts/messaging-contract.js';
import { repositoryContextReads } from '../../src/index.js';
import {
  InMemoryQueues,
  InMemoryCompanies,
  InMemoryConnections,
  InMemoryContacts,
  InMemoryMessages,
  InMemoryOutbox,
  InMemoryPlans,
  InMemoryTicketLogs,
  InMemoryTickets,
  InMemoryUsers,
  SerialTransaction,
} from '../../src/testing.js';

describeMessagingContract('in-memory', async () => {
  // The tickets read the contacts to search their names and numbers, as the SQL adapter joins them.
  const contacts = new InMemoryContacts();
  const tickets = new InMemoryTickets(contacts);
  return {
    connections: new InMemoryConnections(),
    contacts,
    tickets,
    contextReads: repositoryContextReads({ tickets, contacts, queues: new InMemoryQueues() }),
    messages: new InMemoryMessages(tickets),
    outbox: new InMemoryOutbox(),
    companies: new InMemoryCompanies(),
    plans: new InMemoryPlans(),
    users: new InMemoryUsers(),
    ticketLogs: new InMemoryTicketLogs(),
    tx: new SerialTransaction(),
    rollsBack: false,
  };
});
