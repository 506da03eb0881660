import { createInMemoryPorts } from '../../src/testing.js';
import { describeBillingContract } from '../contracts/billing-contract.js';

describeBillingContract('in-memory', async () => createInMemoryPorts());
