import { createInMemoryPorts } from '../../src/testing.js';
import { describeProxiesContract } from '../contracts/proxies-contract.js';

describeProxiesContract('in-memory', async () => createInMemoryPorts());
