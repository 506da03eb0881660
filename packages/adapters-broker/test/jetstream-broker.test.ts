import { expect } from 'chai';
import { connect, nanos, StorageType, RetentionPolicy, type NatsConnection } from 'nats';
import { describeBrokerContract } from '@servicedesk/core/contracts/broker-contract';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import type { BrokerEnvelope } from '@servicedesk/core';
import { DEFAULT_JETSTREAM_STREAMS, JetStreamBroker, subjectCovers } from '../src/index.js';

const rand = () => Math.random().toString(36).slice(2, 10);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function waitFor(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe('subjectCovers', () => {
  it('tells whether a stream subject retains everything a filter matches', () => {
    expect(subjectCovers('evt.>', 'evt.message.sent')).to.equal(true);
    expect(subjectCovers('evt.>', 'evt.>')).to.equal(true);
    expect(subjectCovers('evt.>', 'evt.*.sent')).to.equal(true);
    expect(subjectCovers('evt.>', 'evt')).to.equal(false);
    expect(subjectCovers('evt.>', 'cmd.x')).to.equal(false);
    expect(subjectCovers('evt.*', 'evt.a')).to.equal(true);
    expect(subjectCovers('evt.*', 'evt.a.b')).to.equal(false);
    expect(subjectCovers('evt.*', 'evt.>')).to.equal(false);
    expect(subjectCovers('evt.a', 'evt.*')).to.equal(false);
    expect(DEFAULT_JETSTREAM_STREAMS.map((s) => [s.name, ...s.subjects])).to.deep.equal([
      ['SD_CMD', 'cmd.>'],
      ['SD_EVT', 'evt.>'],
    ]);
  });
});

/**
 * A short ack wait: a message the server sent in the instant a subscription stopped or a connection
 * closed (or whose nak was cut off) comes back after it, and tests wait seconds, not the default 30.
 */
const ACK_WAIT_MS = 1000;

describe('JetStreamBroker', () => {
  const url = integrationUrl('TEST_NATS_URL');
  // Per-run stream names and subjects, so runs on a shared server never overlap the real streams.
  const run = `T${rand()}`;
  const root = `sdtest${run}`;
  const streams = [
    { name: `${run}_CMD`, subjects: [`${root}.cmd.>`] },
    { name: `${run}_EVT`, subjects: [`${root}.evt.>`] },
  ];
  let admin: NatsConnection;

  before(async function () {
    if (!url) this.skip();
    admin = await connect({ servers: url });
  });
  after(async () => {
    if (!admin) return;
    const jsm = await admin.jetstreamManager();
    for (const name of [...streams.map((s) => s.name), `${run}_UPD`]) await jsm.streams.delete(name).catch(() => false);
    await admin.close();
  });

  describeBrokerContract('NATS JetStream', async () => {
    let current = await JetStreamBroker.connect(url!, { streams, ackWaitMs: ACK_WAIT_MS });
    return {
      broker: current.broker,
      subjectRoot: `${root}.evt`,
      reopen: async () => {
        await current.close();
        current = await JetStreamBroker.connect(url!, { streams, ackWaitMs: ACK_WAIT_MS });
        return current.broker;
      },
      close: () => current.close(),
    };
  });

  describe('on the server', function () {
    this.timeout(15_000);
    let current: Awaited<ReturnType<typeof JetStreamBroker.connect>>;
    beforeEach(async () => {
      current = await JetStreamBroker.connect(url!, { streams, ackWaitMs: ACK_WAIT_MS });
    });
    afterEach(async () => {
      await current.close();
    });

    it('with concurrency 4 really runs four deliveries side by side (the server lets four wait for their ack)', async () => {
      let active = 0;
      let most = 0;
      let handled = 0;
      const durable = `par${Math.random().toString(36).slice(2, 8)}`;
      const sub = await current.broker.subscribe(
        durable,
        `${root}.evt.par4.>`,
        async () => {
          active++;
          most = Math.max(most, active);
          await new Promise((r) => setTimeout(r, 50));
          active--;
          handled++;
        },
        { concurrency: 4 },
      );
      for (let i = 0; i < 12; i++) await current.broker.publish({ id: `${durable}-${i}`, subject: `${root}.evt.par4.${i}`, payload: i });
      for (let i = 0; i < 100 && handled < 12; i++) await new Promise((r) => setTimeout(r, 20));
      await sub.stop();
      expect(handled).to.equal(12);
      expect(most).to.equal(4);
      const jsm = await admin.jetstreamManager();
      expect((await jsm.consumers.info(`${run}_EVT`, durable)).config.max_ack_pending).to.equal(4);
    });

    it('creates file-backed streams with a max age and a duplicate window, and updates them on a changed config', async () => {
      const jsm = await admin.jetstreamManager();
      const info = await jsm.streams.info(`${run}_CMD`);
      expect(info.config).to.include({
        storage: StorageType.File,
        retention: RetentionPolicy.Limits,
        max_age: nanos(7 * 24 * 3600_000),
        duplicate_window: nanos(120_000),
      });
      expect(info.config.subjects).to.deep.equal([`${root}.cmd.>`]);
      const spec = (subjects: string[]) => ({ streams: [{ name: `${run}_UPD`, subjects }], duplicateWindowMs: 60_000 });
      await (await JetStreamBroker.connect(url!, spec([`${root}.upd.a.>`]))).close();
      await (await JetStreamBroker.connect(url!, spec([`${root}.upd.a.>`]))).close();
      await (await JetStreamBroker.connect(url!, spec([`${root}.upd.a.>`, `${root}.upd.b.>`]))).close();
      const updated = await jsm.streams.info(`${run}_UPD`);
      expect(updated.config.subjects).to.deep.equal([`${root}.upd.a.>`, `${root}.upd.b.>`]);
      expect(updated.config.duplicate_window).to.equal(nanos(60_000));
    });

    it('stores commands and events in their own streams and refuses subjects no stream retains', async () => {
      const jsm = await admin.jetstreamManager();
      const count = async (name: string) => (await jsm.streams.info(name)).state.messages;
      const before = [await count(`${run}_CMD`), await count(`${run}_EVT`)];
      await current.broker.publish({ id: rand(), subject: `${root}.cmd.session.send.1`, payload: { a: 1 } });
      expect([await count(`${run}_CMD`), await count(`${run}_EVT`)]).to.deep.equal([before[0]! + 1, before[1]]);
      await current.broker.publish({ id: rand(), subject: `${root}.evt.message.sent`, payload: { b: 2 } });
      expect([await count(`${run}_CMD`), await count(`${run}_EVT`)]).to.deep.equal([before[0]! + 1, before[1]! + 1]);
      const refused = async (p: Promise<unknown>) =>
        p.then(
          () => null,
          (e: unknown) => e,
        );
      expect(await refused(current.broker.publish({ id: rand(), subject: `${root}.other.x`, payload: 1 }))).to.be.instanceOf(Error);
      expect(await refused(current.broker.subscribe(`d${rand()}`, `${root}.>`, async () => undefined))).to.be.instanceOf(Error);
    });

    it('keeps a stopped durable on the server, counting what is published meanwhile, and delivers it on resume', async () => {
      const jsm = await admin.jetstreamManager();
      const durable = `d${rand()}`;
      const subject = `${root}.cmd.stopped.${rand()}`;
      const got: string[] = [];
      const sub = await current.broker.subscribe(durable, subject, async (e) => {
        got.push(e.id);
      });
      await current.broker.publish({ id: 'first', subject, payload: 1 });
      await waitFor('the first message', () => got.length === 1);
      await sub.stop();
      await current.broker.publish({ id: 'while-stopped', subject, payload: 2 });
      const info = await jsm.consumers.info(`${run}_CMD`, durable);
      expect(info.config).to.include({ max_ack_pending: 1, max_deliver: 6, filter_subject: subject, ack_wait: nanos(ACK_WAIT_MS) });
      expect(info.num_pending).to.equal(1);
      await current.broker.subscribe(
        durable,
        subject,
        async (e) => {
          got.push(e.id);
        },
        { maxDeliver: 3 },
      );
      await waitFor('the message published while stopped', () => got.length === 2);
      expect(got).to.deep.equal(['first', 'while-stopped']);
      expect((await jsm.consumers.info(`${run}_CMD`, durable)).config.max_deliver, 'updated to the new maxDeliver').to.equal(4);
    });

    it('after a reconnect, redelivers a message that failed before the connection closed with its delivery count', async () => {
      const durable = `d${rand()}`;
      const subject = `${root}.evt.reconnect.${rand()}`;
      const seen: Array<[string, number]> = [];
      await current.broker.subscribe(
        durable,
        subject,
        async (e, info) => {
          seen.push([e.id, info.deliveryCount]);
          throw new Error('down');
        },
        { retryDelayMs: 300 },
      );
      await current.broker.publish({ id: 'x', subject, payload: 1 });
      await waitFor('the failed delivery', () => seen.length === 1);
      await current.close();
      current = await JetStreamBroker.connect(url!, { streams, ackWaitMs: ACK_WAIT_MS });
      await current.broker.subscribe(
        durable,
        subject,
        async (e, info) => {
          seen.push([e.id, info.deliveryCount]);
        },
        { retryDelayMs: 300 },
      );
      await waitFor('the redelivery', () => seen.length === 2);
      expect(seen).to.deep.equal([
        ['x', 1],
        ['x', 2],
      ]);
    });

    it("keeps a slow handler's message from being redelivered while it works", async () => {
      await current.close();
      current = await JetStreamBroker.connect(url!, { streams, ackWaitMs: 500 });
      const subject = `${root}.evt.slow.${rand()}`;
      const [slow, marker] = [rand(), rand()];
      const seen: Array<[string, number]> = [];
      await current.broker.subscribe(`d${rand()}`, subject, async (e, info) => {
        seen.push([e.id, info.deliveryCount]);
        if (e.id === slow) await sleep(1300);
      });
      await current.broker.publish({ id: slow, subject, payload: 1 });
      await waitFor('the delivery', () => seen.length === 1);
      // One delivery at a time, a redelivery before anything newer: a marker published now comes after
      // any second delivery of the slow message, which its 500 ms ack wait would cause without the keep-alive.
      await current.broker.publish({ id: marker, subject, payload: 2 });
      await waitFor('the marker', () => seen.some(([id]) => id === marker));
      expect(seen).to.deep.equal([
        [slow, 1],
        [marker, 1],
      ]);
    });

    it('gives up a payload that is not JSON', async () => {
      const subject = `${root}.evt.garbage.${rand()}`;
      const givenUp: BrokerEnvelope[] = [];
      current.broker.onGiveUp = (e) => {
        givenUp.push(e);
      };
      const got: unknown[] = [];
      await current.broker.subscribe(`d${rand()}`, subject, async (e) => {
        got.push(e.payload);
      });
      await admin.jetstream().publish(subject, new TextEncoder().encode('{not json'), { msgID: 'garbage' });
      await current.broker.publish({ id: rand(), subject, payload: 'fine' });
      await waitFor('the next message', () => got.length === 1);
      expect(got).to.deep.equal(['fine']);
      expect(givenUp.map((e) => e.payload)).to.deep.equal(['{not json']);
    });
  });
});
