import { createInMemoryPorts } from '../../src/index.js';
import { describeFlowsContract } from '../contracts/flows-contract.js';

describeFlowsContract('in-memory', async () => createInMemoryPorts());
