import { createInMemoryPorts } from '../../src/index.js';
import { describeObjstoreContract } from '../contracts/objstore-contract.js';

describeObjstoreContract('in-memory', async () => createInMemoryPorts());
