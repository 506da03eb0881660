import { createInMemoryPorts } from '../../src/index.js';
import { describeProxiesContract } from '../contracts/proxies-contract.js';

describeProxiesContract('in-memory', async () => createInMemoryPorts());
