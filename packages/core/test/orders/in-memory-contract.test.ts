import { createInMemoryPorts } from '../../src/testing.js';
import { describeOrdersContract } from '../contracts/orders-contract.js';

describeOrdersContract('in-memory', async () => createInMemoryPorts());
