import { createInMemoryPorts } from '../../src/index.js';
import { describeCatalogContract } from '../contracts/catalog-contract.js';

describeCatalogContract('in-memory', async () => createInMemoryPorts());
