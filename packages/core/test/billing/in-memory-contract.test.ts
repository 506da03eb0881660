import { createInMemoryPorts } from '../../src/index.js';
import { describeBillingContract } from '../contracts/billing-contract.js';

describeBillingContract('in-memory', async () => createInMemoryPorts());
