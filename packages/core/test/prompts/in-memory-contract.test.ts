import { createInMemoryPorts } from '../../src/testing.js';
import { describePromptsContract } from '../contracts/prompts-contract.js';

describePromptsContract('in-memory', async () => createInMemoryPorts());
