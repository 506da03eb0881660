import { createInMemoryPorts } from '../../src/testing.js';
import { describeContactSellersContract } from '../contracts/contact-sellers-contract.js';

describeContactSellersContract('in-memory', async () => ({ ...createInMemoryPorts(), unitOfWork: (work) => work() }));
