import { describeContactListsContract } from '../contracts/contact-lists-contract.js';
import { InMemoryCompanies, InMemoryPlans, SerialTransaction } from '../../src/testing.js';
import { InMemoryContactListImports, InMemoryContactListItems, InMemoryContactLists } from '../../src/in-memory/contact-lists.js';

describeContactListsContract('in-memory', async () => {
  const contactListItems = new InMemoryContactListItems();
  const contactListImports = new InMemoryContactListImports();
  return {
    contactLists: new InMemoryContactLists(contactListItems, contactListImports),
    contactListItems,
    contactListImports,
    companies: new InMemoryCompanies(),
    plans: new InMemoryPlans(),
    tx: new SerialTransaction(),
  };
});
