import { createInMemoryPorts } from '../../src/index.js';
import { describeBizchatTemplatesContract } from '../contracts/bizchat-contract.js';

describeBizchatTemplatesContract('in-memory', async () => createInMemoryPorts());
