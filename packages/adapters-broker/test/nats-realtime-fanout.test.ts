import { describeRealtimeFanoutContract } from '@servicedesk/core/contracts/realtime-fanout-contract';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { NatsRealtimeFanout } from '../src/index.js';

describe('NatsRealtimeFanout', () => {
  const url = integrationUrl('TEST_NATS_URL');
  before(function () {
    if (!url) this.skip();
  });
  describeRealtimeFanoutContract('NATS (two connections)', async () => {
    const prefix = `test.rt.${Math.random().toString(36).slice(2, 8)}`;
    const one = await NatsRealtimeFanout.connect(url!, prefix);
    const two = await NatsRealtimeFanout.connect(url!, prefix);
    return {
      a: one.fanout,
      b: two.fanout,
      close: async () => {
        await one.close();
        await two.close();
      },
    };
  });
});
