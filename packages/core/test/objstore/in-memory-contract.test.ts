import { createInMemoryPorts } from '../../src/testing.js';
import { describeObjstoreContract } from '../contracts/objstore-contract.js';

describeObjstoreContract('in-memory', async () => createInMemoryPorts());
