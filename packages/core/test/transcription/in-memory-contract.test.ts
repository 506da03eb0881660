import { createInMemoryPorts } from '../../src/index.js';
import { describeTranscriptionContract } from '../contracts/transcription-contract.js';

describeTranscriptionContract('in-memory', async () => createInMemoryPorts());
