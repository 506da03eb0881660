import { createInMemoryPorts } from '../../src/index.js';
import { describeCompanyTemplatesContract } from '../contracts/company-templates-contract.js';

describeCompanyTemplatesContract('in-memory', async () => createInMemoryPorts());
