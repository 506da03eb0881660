import { describeBrokerContract } from '../contracts/broker-contract.js';
import { InProcessBroker } from '../../src/index.js';

describeBrokerContract('in-process', async () => ({ broker: new InProcessBroker(), close: async () => undefined }));
