import { createInMemoryPorts } from '../../src/testing.js';
import { describeCompanyTemplatesContract } from '../contracts/company-templates-contract.js';

describeCompanyTemplatesContract('in-memory', async () => createInMemoryPorts());
