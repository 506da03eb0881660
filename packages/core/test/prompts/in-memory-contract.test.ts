import { createInMemoryPorts } from '../../src/index.js';
import { describePromptsContract } from '../contracts/prompts-contract.js';

describePromptsContract('in-memory', async () => createInMemoryPorts());
