import { describeMessagingContract } from '../contracts/messaging-contract.js';
import {
  InMemoryCompanies, InMemoryConnections, InMemoryContacts, InMemoryMessages, InMemoryOutbox, InMemoryPlans, InMemoryTickets, SerialTransaction,
} from '../../src/index.js';

describeMessagingContract('in-memory', async () => ({
  connections: new InMemoryConnections(),
  contacts: new InMemoryContacts(),
  tickets: new InMemoryTickets(),
  messages: new InMemoryMessages(),
  outbox: new InMemoryOutbox(),
  companies: new InMemoryCompanies(),
  plans: new InMemoryPlans(),
  tx: new SerialTransaction(),
  rollsBack: false,
}));
