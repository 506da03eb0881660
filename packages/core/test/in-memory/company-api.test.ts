import { describeCompanyApiContract } from '../contracts/company-api-contract.js';
import {
  InMemoryCompanies,
  InMemoryHelps,
  InMemoryInvoices,
  InMemoryPartners,
  InMemoryPlans,
  InMemoryPlatformActivity,
  SerialTransaction,
} from '../../src/testing.js';

describeCompanyApiContract('in-memory', async () => {
  const companies = new InMemoryCompanies();
  const invoices = new InMemoryInvoices();
  const activity = new InMemoryPlatformActivity();
  companies.onRemove.push(
    (id) => invoices.dropCompany(id),
    (id) => activity.dropCompany(id),
  );
  return {
    helps: new InMemoryHelps(),
    partners: new InMemoryPartners(),
    invoices,
    activity,
    plans: new InMemoryPlans(),
    companies,
    tx: new SerialTransaction(),
    rollsBack: false,
    addContact: async (c) => activity.addContact(c).id,
    addMessage: async (m) => activity.addMessage(m),
  };
});
