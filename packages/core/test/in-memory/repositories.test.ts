import { describeRepositoriesContract } from '../contracts/repositories-contract.js';
import {
  dropCompanyUsers,
  InMemoryCompanies,
  InMemoryPlans,
  InMemoryRefreshSessions,
  InMemorySettings,
  InMemoryUsers,
  SerialTransaction,
} from '../../src/testing.js';

describeRepositoriesContract('in-memory', async () => {
  const users = new InMemoryUsers();
  const companies = new InMemoryCompanies();
  companies.onRemove.push((id) => dropCompanyUsers(users, id));
  return {
    users,
    companies,
    plans: new InMemoryPlans(),
    settings: new InMemorySettings(),
    refreshSessions: new InMemoryRefreshSessions(),
    tx: new SerialTransaction(),
    rollsBack: false,
  };
});
