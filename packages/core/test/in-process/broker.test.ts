import { expect } from 'chai';
import { describeBrokerContract } from '../contracts/broker-contract.js';
import { InProcessBroker, type BrokerEnvelope } from '../../src/index.js';

describeBrokerContract('in-process', async () => ({ broker: new InProcessBroker(), close: async () => undefined }));
// The contract holds with small limits too: none of its tests has more than 50 messages waiting.
describeBrokerContract('in-process, small limits', async () => ({
  broker: new InProcessBroker({ replayLimit: 16, maxMessages: 64 }),
  close: async () => undefined,
}));

describe('InProcessBroker retention', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const envelope = (i: number, subject = 'evt.bound'): BrokerEnvelope => ({ id: `m-${i}`, subject, payload: { i } });
  const publish = async (broker: InProcessBroker, from: number, to: number, subject?: string) => {
    for (let i = from; i < to; i++) await broker.publish(envelope(i, subject));
  };
  const recorder = () => {
    const got: number[] = [];
    return {
      got,
      handler: async (e: BrokerEnvelope) => {
        got.push((e.payload as { i: number }).i);
      },
    };
  };

  it('keeps only the replay window of what every durable has handled, and a late durable starts from it', async () => {
    const broker = new InProcessBroker({ replayLimit: 3 });
    const early = recorder();
    await broker.subscribe('early', 'evt.bound', early.handler);
    await publish(broker, 0, 1_000);
    await broker.idle();
    expect(early.got).to.have.length(1_000);
    expect(broker.retained().messages).to.equal(3);
    const late = recorder();
    await broker.subscribe('late', 'evt.bound', late.handler);
    await broker.idle();
    expect(late.got).to.deep.equal([997, 998, 999]);
  });

  it('bounds messages no durable consumes to the replay window', async () => {
    const broker = new InProcessBroker({ replayLimit: 5 });
    await broker.subscribe('other', 'evt.other', async () => undefined);
    await publish(broker, 0, 200);
    await broker.idle();
    expect(broker.retained().messages).to.equal(5);
  });

  it('keeps what a stopped durable has yet to handle beyond the replay window, and trims once it has', async () => {
    const broker = new InProcessBroker({ replayLimit: 2 });
    const r = recorder();
    const sub = await broker.subscribe('slow', 'evt.bound', r.handler);
    await sub.stop();
    await publish(broker, 0, 50);
    expect(broker.retained().messages).to.equal(50);
    await broker.subscribe('slow', 'evt.bound', r.handler);
    await broker.idle();
    expect(r.got).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
    expect(broker.retained().messages).to.equal(2);
  });

  it('drops the oldest beyond maxMessages even if pending, reports each drop, and the durable goes on with the next one', async () => {
    const broker = new InProcessBroker({ replayLimit: 2, maxMessages: 10 });
    const dropped: string[] = [];
    broker.onGiveUp = (e) => {
      dropped.push(e.id);
    };
    const r = recorder();
    const sub = await broker.subscribe('away', 'evt.bound', r.handler);
    await sub.stop();
    await publish(broker, 0, 25);
    expect(broker.retained().messages).to.equal(10);
    expect(dropped).to.deep.equal(Array.from({ length: 15 }, (_, i) => `m-${i}`));
    await broker.subscribe('away', 'evt.bound', r.handler);
    await broker.idle();
    expect(r.got).to.deep.equal(Array.from({ length: 10 }, (_, i) => 15 + i));
  });

  it('restarts the delivery count when the message being retried is dropped at the limit', async () => {
    const broker = new InProcessBroker({ replayLimit: 0, maxMessages: 2 });
    const counts: Array<[number, number]> = [];
    await broker.subscribe(
      'retry',
      'evt.bound',
      async (e, info) => {
        const { i } = e.payload as { i: number };
        counts.push([i, info.deliveryCount]);
        if (i === 0) throw new Error('not yet');
      },
      { retryDelayMs: 300, maxDeliver: 5 },
    );
    await broker.publish(envelope(0));
    for (let i = 0; i < 1000 && counts.length === 0; i++) await sleep(1);
    await publish(broker, 1, 3); // three messages over a limit of two: m-0 goes while it waits for its retry
    // Idle once the later messages are handled; a retry of m-0 would have come before them, in order.
    await broker.idle();
    expect(counts).to.deep.equal([
      [0, 1],
      [1, 1],
      [2, 1],
    ]);
  });

  it('remembers envelope ids for the duplicate window only', async () => {
    const broker = new InProcessBroker({ duplicateWindowMs: 500 });
    const r = recorder();
    await broker.subscribe('dups', 'evt.bound', r.handler);
    await broker.publish(envelope(0));
    await broker.publish(envelope(0));
    await publish(broker, 1, 500);
    await broker.idle();
    expect(r.got).to.have.length(500);
    expect(broker.retained().ids).to.equal(500);
    await sleep(600);
    expect(broker.retained().ids).to.equal(0);
    await broker.publish(envelope(0));
    await broker.idle();
    expect(r.got).to.have.length(501);
  });
});

describe('InProcessBroker with concurrency', () => {
  const envelope = (i: number): BrokerEnvelope => ({ id: `c-${i}`, subject: 'evt.side', payload: { i } });
  const until = async (what: string, check: () => boolean) => {
    for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 2));
    if (!check()) throw new Error(`timed out waiting for ${what}`);
  };

  it('runs up to `concurrency` deliveries side by side, never more, and each message once', async () => {
    const broker = new InProcessBroker();
    const started: number[] = [];
    const done: number[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await broker.subscribe(
      'side',
      'evt.side',
      async (e) => {
        const i = (e.payload as { i: number }).i;
        started.push(i);
        await gate;
        done.push(i);
      },
      { concurrency: 4 },
    );
    for (let i = 0; i < 10; i++) await broker.publish(envelope(i));
    await until('four deliveries started', () => started.length === 4);
    // The fifth waits for a free place: nothing finished yet.
    expect(started).to.deep.equal([0, 1, 2, 3]);
    release();
    await broker.idle();
    expect([...done].sort((a, b) => a - b)).to.deep.equal([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(started).to.have.length(10);
  });

  it('retries a failing delivery on its own while the others go on, and gives it up after maxDeliver', async () => {
    const broker = new InProcessBroker();
    const given: string[] = [];
    broker.onGiveUp = (e) => {
      given.push(e.id);
    };
    const attempts = new Map<number, number>();
    const handled: number[] = [];
    await broker.subscribe(
      'retry',
      'evt.side',
      async (e, info) => {
        const i = (e.payload as { i: number }).i;
        attempts.set(i, info.deliveryCount);
        if (i === 1 && info.deliveryCount < 3) throw new Error('not yet');
        if (i === 2) throw new Error('never');
        handled.push(i);
      },
      { concurrency: 3, retryDelayMs: 1, maxDeliver: 4 },
    );
    for (let i = 0; i < 6; i++) await broker.publish(envelope(i));
    await broker.idle();
    expect([...handled].sort()).to.deep.equal([0, 1, 3, 4, 5]);
    expect(attempts.get(1)).to.equal(3);
    expect(attempts.get(2)).to.equal(4);
    expect(given).to.deep.equal(['c-2']);
  });

  it('a durable stopped in the middle of a retry gets that message again when it comes back', async () => {
    const broker = new InProcessBroker();
    const first: number[] = [];
    let failing = true;
    const sub = await broker.subscribe(
      'resume',
      'evt.side',
      async (e) => {
        const i = (e.payload as { i: number }).i;
        if (i === 0 && failing) throw new Error('down');
        first.push(i);
      },
      { concurrency: 2, retryDelayMs: 20, maxDeliver: 100 },
    );
    for (let i = 0; i < 3; i++) await broker.publish(envelope(i));
    await until('the others handled', () => first.length === 2);
    await sub.stop();
    failing = false;
    const second: number[] = [];
    await broker.subscribe(
      'resume',
      'evt.side',
      async (e) => {
        second.push((e.payload as { i: number }).i);
      },
      { concurrency: 2 },
    );
    await until('message 0 handled', () => second.includes(0));
    await broker.idle();
    expect(first).to.deep.equal([1, 2]);
    expect(second[0]).to.equal(0);
  });
});
