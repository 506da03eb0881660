import { expect } from 'chai';
import { NotFoundError, ServiceUnavailableError, type Broker, type BrokerEnvelope, type DeliveryInfo, type SubscribeOptions } from '../../src/index.js';

/** What a contract run needs from an adapter. */
export interface BrokerHarness {
  readonly broker: Broker;
  /** Closes the current connection and opens a new one on the same server (adapters that persist). */
  readonly reopen?: () => Promise<Broker>;
  /** The first subject token(s) the adapter retains, e.g. `evt` (default) or a per-run prefix. */
  readonly subjectRoot?: string;
  close(): Promise<void>;
}

type Handler = (envelope: BrokerEnvelope, info: DeliveryInfo) => Promise<void>;
interface Received {
  readonly id: string;
  readonly subject: string;
  readonly payload: unknown;
  readonly deliveryCount: number;
}
/** Adapters expose a give-up hook outside the port; the contract checks it when present. */
interface GivesUp {
  onGiveUp: (envelope: BrokerEnvelope, error: unknown) => void;
}

const fast: SubscribeOptions = { retryDelayMs: 50, maxDeliver: 5 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const rand = () => Math.random().toString(36).slice(2, 10);

async function waitFor(what: string, condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(5);
  }
}

function recorder(fail: (e: BrokerEnvelope, info: DeliveryInfo) => boolean = () => false) {
  const seen: Received[] = [];
  const handler: Handler = async (e, info) => {
    seen.push({ id: e.id, subject: e.subject, payload: e.payload, deliveryCount: info.deliveryCount });
    if (fail(e, info)) throw new Error(`refused ${e.id}`);
  };
  return { seen, handler, ids: () => seen.map((r) => r.id) };
}

/**
 * The broker port's semantics: a retained log, durable consumers that resume where they stopped,
 * deduplication by envelope id, one-at-a-time ordered delivery, redelivery after a failure and a
 * give-up after `maxDeliver`. Subjects and durables are unique per test, so a shared server works.
 */
export function describeBrokerContract(name: string, make: () => Promise<BrokerHarness>) {
  describe(`Broker contract: ${name}`, function () {
    this.timeout(15_000);
    let harness: BrokerHarness;
    let broker: Broker;
    let base: string;
    const ids = () => `m-${rand()}`;
    const env = (subject: string, payload: unknown, id = ids()): BrokerEnvelope => ({ id, subject, payload });
    const publishAll = async (subject: string, count: number, tag = 'n') => {
      const sent: string[] = [];
      for (let i = 0; i < count; i++) {
        const e = env(subject, { [tag]: i }, `${tag}-${i}-${rand()}`);
        await broker.publish(e);
        sent.push(e.id);
      }
      return sent;
    };

    beforeEach(async () => {
      harness = await make();
      broker = harness.broker;
      base = `${harness.subjectRoot ?? 'evt'}.contract${rand()}`;
    });
    afterEach(async () => {
      await harness.close();
    });

    it('delivers a published envelope to a durable subscriber intact, on its first delivery', async () => {
      const r = recorder();
      await broker.subscribe(`d${rand()}`, `${base}.one`, r.handler, fast);
      const payload = { text: 'olá 🌱', n: 42.5, flag: false, none: null, list: [1, 'two', { three: 3 }], nested: { deep: { x: '' } } };
      const sent = env(`${base}.one`, payload);
      await broker.publish(sent);
      await waitFor('the delivery', () => r.seen.length === 1);
      expect(r.seen[0]).to.deep.equal({ id: sent.id, subject: sent.subject, payload, deliveryCount: 1 });
    });

    it('delivers messages published before the durable first subscribed', async () => {
      const sent = await publishAll(`${base}.early`, 3);
      const r = recorder();
      await broker.subscribe(`d${rand()}`, `${base}.early`, r.handler, fast);
      await waitFor('three deliveries', () => r.seen.length === 3);
      expect(r.ids()).to.deep.equal(sent);
    });

    it('matches `>` (one or more trailing tokens) and `*` (exactly one token)', async () => {
      const deep = recorder();
      const one = recorder();
      await broker.subscribe(`d${rand()}`, `${base}.a.>`, deep.handler, fast);
      await broker.subscribe(`d${rand()}`, `${base}.a.*`, one.handler, fast);
      for (const s of ['a', 'a.b', 'a.b.c', 'x.b', 'a.c', 'ab.c']) await broker.publish(env(`${base}.${s}`, s, `${s}-${rand()}`));
      await broker.publish(env(`${base}.a.end`, 'end'));
      await waitFor('the end marker', () => deep.seen.length === 4 && one.seen.length === 3);
      expect(deep.seen.map((x) => x.payload)).to.deep.equal(['a.b', 'a.b.c', 'a.c', 'end']);
      expect(one.seen.map((x) => x.payload)).to.deep.equal(['a.b', 'a.c', 'end']);
    });

    it('delivers an envelope id once, whether published again in sequence or concurrently', async () => {
      const r = recorder();
      await broker.subscribe(`d${rand()}`, `${base}.dup`, r.handler, fast);
      const twice = env(`${base}.dup`, { v: 'first' });
      await broker.publish(twice);
      await broker.publish({ ...twice, payload: { v: 'second' } });
      const racing = env(`${base}.dup`, { v: 'race' });
      await Promise.all(Array.from({ length: 5 }, () => broker.publish(racing)));
      const end = env(`${base}.dup`, 'end');
      await broker.publish(end);
      // Delivery is in order: once the marker published last is in, no copy of an earlier one can follow.
      await waitFor('the end marker', () => r.ids().includes(end.id));
      expect(r.ids()).to.deep.equal([twice.id, racing.id, end.id]);
      expect(r.seen[0]!.payload).to.deep.equal({ v: 'first' });
    });

    it('hands one consumer 50 messages in publish order, one at a time', async () => {
      let active = 0;
      let overlap = 0;
      const got: string[] = [];
      await broker.subscribe(
        `d${rand()}`,
        `${base}.order.>`,
        async (e) => {
          active++;
          if (active > 1) overlap++;
          if (got.length % 7 === 0) await sleep(2);
          else await Promise.resolve();
          got.push(e.id);
          active--;
        },
        fast,
      );
      const sent: string[] = [];
      for (let i = 0; i < 50; i++) {
        const e = env(`${base}.order.${i % 3}`, i, `o-${i}-${rand()}`);
        sent.push(e.id);
        await broker.publish(e);
      }
      await waitFor('50 deliveries', () => got.length === 50);
      expect(got).to.deep.equal(sent);
      expect(overlap).to.equal(0);
    });

    it('with concurrency 4 runs at most four deliveries at once and still delivers each once', async () => {
      let active = 0;
      let most = 0;
      const got: string[] = [];
      await broker.subscribe(
        `d${rand()}`,
        `${base}.par.>`,
        async (e) => {
          active++;
          most = Math.max(most, active);
          await sleep(20);
          got.push(e.id);
          active--;
        },
        { ...fast, concurrency: 4 },
      );
      const sent: string[] = [];
      for (let i = 0; i < 16; i++) {
        const e = env(`${base}.par.${i % 2}`, i, `p-${i}-${rand()}`);
        sent.push(e.id);
        await broker.publish(e);
      }
      await waitFor('16 deliveries', () => got.length === 16);
      // Instead of waiting a while to see that nothing more comes: a message published after the
      // sixteen were handled is handed out after them, so a second delivery of one of them made by
      // the consumer's own bookkeeping would come before it.
      const later = env(`${base}.par.0`, 'later', `p-later-${rand()}`);
      await broker.publish(later);
      await waitFor('the later message', () => got.includes(later.id));
      expect([...got].filter((id) => id !== later.id).sort()).to.deep.equal([...sent].sort());
      // Up to four: the in-process broker (one process, one database connection) runs them one by one.
      expect(most).to.be.within(1, 4);
    });

    it('redelivers after a handler throws, with deliveryCount 2, and holds the later messages back', async () => {
      const r = recorder((e, info) => (e.payload as { n?: number }).n === 0 && info.deliveryCount === 1);
      await broker.subscribe(`d${rand()}`, `${base}.retry`, r.handler, fast);
      const sent = await publishAll(`${base}.retry`, 3);
      await waitFor('four deliveries', () => r.seen.length === 4);
      expect(r.seen.map((x) => [x.id, x.deliveryCount])).to.deep.equal([
        [sent[0], 1],
        [sent[0], 2],
        [sent[1], 1],
        [sent[2], 1],
      ]);
    });

    it('gives a message up after maxDeliver failures and lets the next one flow', async () => {
      const givenUp: Array<[string, unknown]> = [];
      const hook = broker as Broker & Partial<GivesUp>;
      if (typeof hook.onGiveUp === 'function')
        hook.onGiveUp = (e, err) => {
          givenUp.push([e.id, err]);
        };
      const r = recorder((e) => e.payload === 'poison');
      await broker.subscribe(`d${rand()}`, `${base}.poison`, r.handler, { retryDelayMs: 50, maxDeliver: 3 });
      const poison = env(`${base}.poison`, 'poison');
      const next = env(`${base}.poison`, 'next');
      await broker.publish(poison);
      await broker.publish(next);
      // Later messages are held back while one is retried: once the next is in, the poison's tries are over.
      await waitFor('the next message', () => r.ids().includes(next.id));
      expect(r.seen.map((x) => [x.id, x.deliveryCount])).to.deep.equal([
        [poison.id, 1],
        [poison.id, 2],
        [poison.id, 3],
        [next.id, 1],
      ]);
      if (typeof hook.onGiveUp === 'function') {
        expect(givenUp.map(([id]) => id)).to.deep.equal([poison.id]);
        expect(String(givenUp[0]![1])).to.contain(`refused ${poison.id}`);
      }
    });

    it('gives a message breaking a domain rule up at its first failure, and retries a throttled one', async () => {
      const givenUp: string[] = [];
      const hook = broker as Broker & Partial<GivesUp>;
      if (typeof hook.onGiveUp === 'function')
        hook.onGiveUp = (e) => {
          givenUp.push(e.id);
        };
      const seen: Array<[string, number]> = [];
      const missing = env(`${base}.kinds`, 'missing');
      const busy = env(`${base}.kinds`, 'busy');
      const last = env(`${base}.kinds`, 'last');
      await broker.subscribe(
        `d${rand()}`,
        `${base}.kinds`,
        async (e, info) => {
          seen.push([e.id, info.deliveryCount]);
          if (e.payload === 'missing') throw new NotFoundError('ERR_NO_TICKET_FOUND');
          if (e.payload === 'busy' && info.deliveryCount === 1) throw new ServiceUnavailableError('ERR_CNPJ_REGISTRY_UNAVAILABLE');
        },
        fast,
      );
      for (const e of [missing, busy, last]) await broker.publish(e);
      await waitFor('the last message', () => seen.some(([id]) => id === last.id));
      expect(seen).to.deep.equal([
        [missing.id, 1],
        [busy.id, 1],
        [busy.id, 2],
        [last.id, 1],
      ]);
      if (typeof hook.onGiveUp === 'function') expect(givenUp).to.deep.equal([missing.id]);
    });

    it('resumes a stopped durable after the last handled message, with what was published meanwhile', async () => {
      const durable = `d${rand()}`;
      const subject = `${base}.resume`;
      const sent = await publishAll(subject, 5, 'a');
      const r = recorder();
      const sub = await broker.subscribe(durable, subject, r.handler, fast);
      await waitFor('three deliveries', () => r.seen.length >= 3);
      await sub.stop();
      const atStop = r.seen.length;
      sent.push(...(await publishAll(subject, 3, 'b')));
      // Another durable on the subject receiving all eight shows they were delivered while this one was stopped.
      const other = recorder();
      const witness = await broker.subscribe(`w${rand()}`, subject, other.handler, fast);
      await waitFor('another durable to receive all eight', () => other.seen.length >= 8);
      await witness.stop();
      expect(r.seen.length, 'nothing is delivered to a stopped durable').to.equal(atStop);
      await broker.subscribe(durable, subject, r.handler, fast);
      // A message published after the eight comes after them: once it is in, no ninth copy can follow.
      const marker = await publishAll(subject, 1, 'marker');
      await waitFor('the marker', () => r.ids().includes(marker[0]!));
      expect(r.ids()).to.deep.equal([...sent, ...marker]);
    });

    it('hands a message that failed before stop() to the next subscription of the durable, counting on', async () => {
      const durable = `d${rand()}`;
      const subject = `${base}.handover`;
      const first = recorder(() => true);
      const sub = await broker.subscribe(durable, subject, first.handler, { retryDelayMs: 100, maxDeliver: 5 });
      const sent = await publishAll(subject, 1);
      await waitFor('the failed delivery', () => first.seen.length === 1);
      await sub.stop();
      const second = recorder();
      await broker.subscribe(durable, subject, second.handler, fast);
      await sub.stop(); // stopping a stale subscription again leaves the new one alone
      sent.push(...(await publishAll(subject, 1, 'later')));
      await waitFor('both on the new subscription', () => second.seen.length === 2);
      // A marker published after them arrives after anything either subscription could still receive.
      const marker = await publishAll(subject, 1, 'marker');
      await waitFor('the marker', () => second.ids().includes(marker[0]!));
      expect(first.seen).to.have.length(1);
      expect(second.seen.map((x) => [x.id, x.deliveryCount])).to.deep.equal([
        [sent[0], 2],
        [sent[1], 1],
        [marker[0], 1],
      ]);
    });

    it('refuses to move a durable to another subject', async () => {
      const durable = `d${rand()}`;
      const sub = await broker.subscribe(durable, `${base}.here`, async () => undefined, fast);
      await sub.stop();
      let error: unknown;
      await broker
        .subscribe(durable, `${base}.there`, async () => undefined, fast)
        .catch((e: unknown) => {
          error = e;
        });
      expect(error).to.be.instanceOf(Error);
    });

    it('gives each of two durables on one subject every message', async () => {
      const one = recorder();
      const two = recorder();
      await broker.subscribe(`d${rand()}`, `${base}.fan`, one.handler, fast);
      const sent = await publishAll(`${base}.fan`, 4);
      await broker.subscribe(`d${rand()}`, `${base}.fan`, two.handler, fast);
      await waitFor('both durables', () => one.seen.length === 4 && two.seen.length === 4);
      expect(one.ids()).to.deep.equal(sent);
      expect(two.ids()).to.deep.equal(sent);
    });

    it('keeps a durable position across a reopened connection', async function () {
      if (!harness.reopen) this.skip();
      const durable = `d${rand()}`;
      const subject = `${base}.reopen`;
      const sent = await publishAll(subject, 3, 'a');
      const r = recorder();
      const sub = await broker.subscribe(durable, subject, r.handler, fast);
      await waitFor('three deliveries', () => r.seen.length === 3);
      await sub.stop();
      sent.push(...(await publishAll(subject, 2, 'b')));
      broker = await harness.reopen!();
      sent.push(...(await publishAll(subject, 2, 'c')));
      await broker.subscribe(durable, subject, r.handler, fast);
      await waitFor('all seven', () => r.seen.length >= 7);
      // A marker published after the seven comes after them: once it is in, no eighth copy can follow.
      const marker = await publishAll(subject, 1, 'marker');
      await waitFor('the marker', () => r.ids().includes(marker[0]!));
      expect(r.ids()).to.deep.equal([...sent, ...marker]);
    });
  });
}
