import { describeTagsContract } from '../contracts/tags-contract.js';
import {
  InMemoryCompanies,
  InMemoryConnections,
  InMemoryContacts,
  InMemoryPlans,
  InMemoryTags,
  InMemoryTickets,
  SerialTransaction,
} from '../../src/testing.js';

describeTagsContract('in-memory', async () => {
  const contacts = new InMemoryContacts();
  const tags = new InMemoryTags();
  return {
    tags,
    tickets: new InMemoryTickets(contacts, tags),
    contacts,
    connections: new InMemoryConnections(),
    companies: new InMemoryCompanies(),
    plans: new InMemoryPlans(),
    tx: new SerialTransaction(),
  };
});
