import { describeRealtimeFanoutContract } from '../contracts/realtime-fanout-contract.js';
import { InProcessRealtimeFanout } from '../../src/index.js';

describeRealtimeFanoutContract('in-process (one bus shared by both ends)', async () => {
  const bus = new InProcessRealtimeFanout();
  return { a: bus, b: bus, close: async () => undefined };
});
