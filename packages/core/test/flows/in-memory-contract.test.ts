import { createInMemoryPorts } from '../../src/testing.js';
import { describeFlowsContract } from '../contracts/flows-contract.js';
import { describeFlowRunsContract } from '../contracts/flow-runs-contract.js';

describeFlowsContract('in-memory', async () => createInMemoryPorts());

describeFlowRunsContract('in-memory', async () => createInMemoryPorts());
