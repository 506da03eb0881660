import { expect } from 'chai';
import { InProcessBroker, type BrokerEnvelope } from '../../src/index.js';
import { FixedClock, InMemoryOutbox } from '../../src/testing.js';
import { RelayOutbox } from '../../src/outbox/relay-outbox.js';

/** Resolves with whether `p` settled before `later` did. */
async function settledBefore(p: Promise<unknown>, later: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void p.then(() => {
    settled = true;
  });
  await later;
  await new Promise((r) => setImmediate(r));
  return settled;
}

describe('In-process broker: handling of a tracked message', () => {
  it('is offered only with trackHandling', () => {
    expect(new InProcessBroker().publishTracked).to.equal(undefined);
    expect(new InProcessBroker({ trackHandling: true }).publishTracked).to.be.a('function');
  });

  it('settles once the command and the event its handler published were both handled', async () => {
    const broker = new InProcessBroker({ trackHandling: true });
    let releaseEvent!: () => void;
    const eventGate = new Promise<void>((r) => {
      releaseEvent = r;
    });
    let eventHandled!: () => void;
    const eventDone = new Promise<void>((r) => {
      eventHandled = r;
    });
    let commandReturned!: () => void;
    const commandDone = new Promise<void>((r) => {
      commandReturned = r;
    });
    let eventStarted!: () => void;
    const eventBegun = new Promise<void>((r) => {
      eventStarted = r;
    });
    await broker.subscribe('runtime', 'cmd.>', async (e) => {
      await broker.publish({ id: `sent:${e.id}`, subject: 'evt.message.sent', payload: null });
      setImmediate(commandReturned);
    });
    await broker.subscribe('backend', 'evt.>', async () => {
      eventStarted();
      await eventGate;
      eventHandled();
    });
    const { handled } = await broker.publishTracked!({ id: 'm1', subject: 'cmd.session.send.1', payload: null });
    // The command's handler is done (a turn after it returned) and the event it published is being handled.
    expect(await settledBefore(handled, Promise.all([commandDone, eventBegun]))).to.equal(false);
    releaseEvent();
    await eventDone;
    await handled;
  });

  it('stays open while the handler fails and is retried, and settles when it finally succeeds', async () => {
    const broker = new InProcessBroker({ trackHandling: true });
    let calls = 0;
    let succeeded!: () => void;
    const success = new Promise<void>((r) => {
      succeeded = r;
    });
    await broker.subscribe(
      'runtime',
      'cmd.>',
      async () => {
        calls++;
        if (calls < 3) throw new Error('retry later');
        succeeded();
      },
      { retryDelayMs: 1, maxDeliver: 10 },
    );
    const { handled } = await broker.publishTracked!({ id: 'm1', subject: 'cmd.x.y.1', payload: null });
    await success;
    await handled;
    expect(calls).to.equal(3);
  });

  it('waits for a consumer that subscribes after the publish', async () => {
    const broker = new InProcessBroker({ trackHandling: true });
    const { handled } = await broker.publishTracked!({ id: 'm1', subject: 'cmd.x.y.1', payload: null });
    const seen: BrokerEnvelope[] = [];
    await broker.subscribe('late', 'cmd.>', async (e) => {
      seen.push(e);
    });
    await handled;
    expect(seen.map((e) => e.id)).to.deep.equal(['m1']);
  });
});

describe('Outbox relay on a volatile broker', () => {
  it('keeps an entry until it is handled, and a new process relays what the previous one lost', async () => {
    const clock = new FixedClock();
    const outbox = new InMemoryOutbox();
    await outbox.add({ id: 'a', subject: 'cmd.session.send.1', payload: 1, createdAt: clock.now() });
    await outbox.add({ id: 'b', subject: 'cmd.session.send.2', payload: 2, createdAt: clock.now() });
    // Process 1: "a" is handled, "b" has no consumer yet when the process dies.
    const first = new InProcessBroker({ trackHandling: true });
    let handledA!: () => void;
    const aDone = new Promise<void>((r) => {
      handledA = r;
    });
    await first.subscribe('conn-1', 'cmd.session.send.1', async () => {
      handledA();
    });
    const relay1 = new RelayOutbox({ outbox, broker: first, clock });
    expect(await relay1.execute()).to.equal(2);
    expect(await outbox.pending(10)).to.deep.equal([]);
    await aDone;
    await relay1.execute(); // records what was handled
    expect(outbox.entries.find((e) => e.id === 'a')!.handledAt).to.be.instanceOf(Date);
    expect(outbox.entries.find((e) => e.id === 'b')!.handledAt).to.equal(null);
    // Process 2 (kill -9 in between): only "b" goes out again.
    const second = new InProcessBroker({ trackHandling: true });
    const received: string[] = [];
    await second.subscribe('all', 'cmd.>', async (e) => {
      received.push(e.id);
    });
    const relay2 = new RelayOutbox({ outbox, broker: second, clock });
    expect(await relay2.execute()).to.equal(1);
    await second.idle();
    expect(received).to.deep.equal(['b']);
  });

  it('on a durable broker a hand-over is the end: nothing is relayed again', async () => {
    const clock = new FixedClock();
    const outbox = new InMemoryOutbox();
    await outbox.add({ id: 'a', subject: 'cmd.session.send.1', payload: 1, createdAt: clock.now() });
    expect(await new RelayOutbox({ outbox, broker: new InProcessBroker(), clock }).execute()).to.equal(1);
    expect(await new RelayOutbox({ outbox, broker: new InProcessBroker(), clock }).execute()).to.equal(0);
  });
});
