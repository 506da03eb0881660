import { createInMemoryPorts } from '../../src/testing.js';
import { describeTranscriptionContract } from '../contracts/transcription-contract.js';

describeTranscriptionContract('in-memory', async () => createInMemoryPorts());
