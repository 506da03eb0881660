import { describeBlobStorageContract } from '../contracts/blob-storage-contract.js';
import { InMemoryBlobStorage } from '../../src/in-memory/support.js';

describeBlobStorageContract('in-memory', async () => ({ blobs: new InMemoryBlobStorage() }));
