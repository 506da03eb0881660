import { createInMemoryPorts } from '../../src/testing.js';
import { describeBizchatTemplatesContract } from '../contracts/bizchat-contract.js';

describeBizchatTemplatesContract('in-memory', async () => createInMemoryPorts());
