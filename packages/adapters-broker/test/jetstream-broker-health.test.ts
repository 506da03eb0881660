import { expect } from 'chai';
import { connect } from 'nats';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { JetStreamBroker } from '../src/index.js';

describe('JetStreamBroker.connected (for GET /debug-queues)', () => {
  const url = integrationUrl('TEST_NATS_URL');
  before(function () {
    if (!url) this.skip();
  });

  it('answers true while the server answers a round trip, false once closed', async () => {
    const run = `H${Math.random().toString(36).slice(2, 8)}`;
    const { broker, close } = await JetStreamBroker.connect(url!, { streams: [{ name: `${run}_CMD`, subjects: [`sdhealth${run}.>`] }] });
    expect(await broker.connected()).to.equal(true);
    await close();
    expect(await broker.connected()).to.equal(false);
    const admin = await connect({ servers: url! });
    await (await admin.jetstreamManager()).streams.delete(`${run}_CMD`);
    await admin.close();
  });
});
