import { createInMemoryPorts } from '../../src/index.js';
import { describeFilesContract } from '../contracts/files-contract.js';

describeFilesContract('in-memory', async () => createInMemoryPorts());
