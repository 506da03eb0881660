import { describeContactsContract } from '../contracts/contacts-contract.js';
import { InMemoryCompanies, InMemoryContacts, InMemoryPlans, InMemoryUsers, SerialTransaction } from '../../src/testing.js';

describeContactsContract('in-memory', async () => ({
  contacts: new InMemoryContacts(),
  companies: new InMemoryCompanies(),
  plans: new InMemoryPlans(),
  users: new InMemoryUsers(),
  tx: new SerialTransaction(),
  rollsBack: false,
}));
