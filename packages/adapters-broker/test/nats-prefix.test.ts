import { expect } from 'chai';
import { connect } from 'nats';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import type { BrokerEnvelope } from '@servicedesk/core';
import { JetStreamBroker, NatsChannelQueries, NatsQueryResponder, NatsRealtimeFanout, natsSubject } from '../src/index.js';

describe('NATS_PREFIX: two deployments on one NATS server', () => {
  const url = integrationUrl('TEST_NATS_URL');
  const run = Math.random().toString(36).slice(2, 8);
  const prefixes = [`pa${run}`, `pb${run}`] as const;
  before(function () {
    if (!url) this.skip();
  });
  after(async () => {
    if (!url) return;
    const admin = await connect({ servers: url });
    const jsm = await admin.jetstreamManager();
    for (const p of prefixes) for (const s of ['SD_CMD', 'SD_EVT']) await jsm.streams.delete(`${p}_${s}`).catch(() => false);
    await admin.close();
  });

  it('leaves names unchanged without a prefix', () => {
    expect(natsSubject('', 'cmd.session.send.1')).to.equal('cmd.session.send.1');
    expect(natsSubject('acme', 'cmd.session.send.1')).to.equal('acme.cmd.session.send.1');
    expect(() => natsSubject('a.b', 'x')).to.throw(/NATS_PREFIX/);
  });

  it('keeps streams, subjects and durables apart: each broker sees only its own messages, under their logical subjects', async () => {
    const [a, b] = await Promise.all([JetStreamBroker.connect(url!, { prefix: prefixes[0] }), JetStreamBroker.connect(url!, { prefix: prefixes[1] })]);
    try {
      const seen: Record<string, BrokerEnvelope[]> = { a: [], b: [] };
      const done: Record<string, () => void> = {};
      const finished = {
        a: new Promise<void>((r) => {
          done.a = r;
        }),
        b: new Promise<void>((r) => {
          done.b = r;
        }),
      };
      for (const [key, broker] of [
        ['a', a.broker],
        ['b', b.broker],
      ] as const) {
        // The same durable and subject in both deployments, as two copies of the backend would use.
        await broker.subscribe('backend-events', 'evt.>', async (envelope) => {
          seen[key]!.push(envelope);
          if (envelope.id.endsWith('last')) done[key]!();
        });
      }
      await a.broker.publish({ id: 'same-id', subject: 'evt.message.sent', payload: { from: 'a' } });
      await b.broker.publish({ id: 'same-id', subject: 'evt.message.sent', payload: { from: 'b' } });
      await a.broker.publish({ id: 'a-last', subject: 'evt.message.sent', payload: { from: 'a' } });
      await b.broker.publish({ id: 'b-last', subject: 'evt.message.sent', payload: { from: 'b' } });
      await Promise.all([finished.a, finished.b]);
      expect(seen.a!.map((e) => [e.id, e.subject, (e.payload as { from: string }).from])).to.deep.equal([
        ['same-id', 'evt.message.sent', 'a'],
        ['a-last', 'evt.message.sent', 'a'],
      ]);
      expect(seen.b!.map((e) => [e.id, (e.payload as { from: string }).from])).to.deep.equal([
        ['same-id', 'b'],
        ['b-last', 'b'],
      ]);
      const admin = await connect({ servers: url! });
      const jsm = await admin.jetstreamManager();
      expect((await jsm.streams.info(`${prefixes[0]}_SD_EVT`)).config.subjects).to.deep.equal([`${prefixes[0]}.evt.>`]);
      expect((await jsm.consumers.info(`${prefixes[1]}_SD_EVT`, `${prefixes[1]}_backend-events`)).config.filter_subject).to.equal(`${prefixes[1]}.evt.>`);
      await admin.close();
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('prefixes realtime fan-out and session queries too', async () => {
    const fa = await NatsRealtimeFanout.connect(url!, natsSubject(prefixes[0], 'sd.realtime'));
    const fb = await NatsRealtimeFanout.connect(url!, natsSubject(prefixes[1], 'sd.realtime'));
    const qa = await NatsChannelQueries.connect(url!, natsSubject(prefixes[0], 'sd.q'));
    const rb = await NatsQueryResponder.connect(url!, natsSubject(prefixes[1], 'sd.q'));
    try {
      const got: string[] = [];
      let last!: () => void;
      const lastSeen = new Promise<void>((r) => {
        last = r;
      });
      await fa.fanout.subscribe((_c, frame) => {
        got.push(frame);
        if (frame === 'a2') last();
      });
      await fb.fanout.publish(1, 'b1');
      await fa.fanout.publish(1, 'a2');
      await lastSeen;
      expect(got).to.deep.equal(['a2']);
      // B's runtime answers for connection 7; A's backend does not reach it.
      rb.responder.attach(7, async () => ({ exists: true, id: 'x' }));
      const asked = await qa.queries.checkNumber({ id: 7 } as never, '5511999999999').then(
        () => 'answered',
        (err: { code?: string }) => err.code,
      );
      expect(asked).to.equal('ERR_SESSION_NOT_CONNECTED');
    } finally {
      await Promise.all([fa.close(), fb.close(), qa.close(), rb.close()]);
    }
  });
});
