import { createInMemoryPorts } from '../../src/testing.js';
import { describeFilesContract } from '../contracts/files-contract.js';

describeFilesContract('in-memory', async () => createInMemoryPorts());
