import { createInMemoryPorts } from '../../src/index.js';
import { describeOrdersContract } from '../contracts/orders-contract.js';

describeOrdersContract('in-memory', async () => createInMemoryPorts());
