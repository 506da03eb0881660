import { createInMemoryPorts } from '../../src/testing.js';
import { describeCatalogContract } from '../contracts/catalog-contract.js';

describeCatalogContract('in-memory', async () => createInMemoryPorts());
