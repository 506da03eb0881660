import { createInMemoryPorts } from '../../src/index.js';
import { describeContactSellersContract } from '../contracts/contact-sellers-contract.js';

describeContactSellersContract('in-memory', async () => ({ ...createInMemoryPorts(), unitOfWork: (work) => work() }));
