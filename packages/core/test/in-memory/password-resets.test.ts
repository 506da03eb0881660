import { describePasswordResetsContract } from '../contracts/password-resets-contract.js';
import { InMemoryCompanies, InMemoryPasswordResets, InMemoryPlans, InMemoryUsers, SerialTransaction } from '../../src/testing.js';

describePasswordResetsContract('in-memory', async () => ({
  passwordResets: new InMemoryPasswordResets(),
  users: new InMemoryUsers(),
  companies: new InMemoryCompanies(),
  plans: new InMemoryPlans(),
  tx: new SerialTransaction(),
}));
