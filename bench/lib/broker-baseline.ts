import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { AckPolicy, connect, DeliverPolicy, RetentionPolicy, StorageType, type ConsumerMessages } from 'nats';
import { paced, type PhaseResult } from './load.js';
import { now } from './stats.js';

/**
 * The broker alone, as the send path uses it: a command published, consumed by the "runtime"
 * side, which publishes an event consumed by the "backend" side; done when the event arrives.
 * On NATS: JetStream with acknowledged publishes and durable pull consumers with explicit acks
 * (a stream of its own, deleted afterwards). Embedded: the product's in-process broker.
 */
/** The product's in-process broker, from the tree under test (the module has no runtime imports). */
interface Envelope {
  id: string;
  subject: string;
  payload: unknown;
}
interface InProcessBroker {
  publish(e: Envelope): Promise<void>;
  subscribe(durable: string, subject: string, handler: (e: Envelope) => Promise<void>): Promise<unknown>;
}
async function inProcessBroker(root: string): Promise<InProcessBroker> {
  const file = path.join(root, 'packages/core/src/in-memory/in-process-broker.ts');
  const mod = (await import(pathToFileURL(file).href)) as { InProcessBroker: new () => InProcessBroker };
  return new mod.InProcessBroker();
}

export async function brokerRoundTrips(options: {
  natsUrl?: string;
  root: string;
  rate: number;
  durationMs: number;
  drainMs: number;
}): Promise<PhaseResult & { what: string }> {
  const waiters = new Map<string, (t: number) => void>();
  const arrived = (id: string) => {
    const t = now();
    const w = waiters.get(id);
    if (w) {
      waiters.delete(id);
      w(t);
    }
  };
  /** A few unmeasured round trips first (stream and consumer set-up, JIT). */
  const warmUp = async (task: (i: number) => Promise<number | false>) => {
    for (let i = 0; i < 50; i++) await task(-1 - i);
  };
  const roundTrip = (publish: (id: string) => Promise<void>) => async (i: number) => {
    const id = `rt-${i}`;
    const done = new Promise<number | false>((resolve) => {
      const timer = setTimeout(() => {
        waiters.delete(id);
        resolve(false);
      }, options.drainMs);
      waiters.set(id, (t) => {
        clearTimeout(timer);
        resolve(t);
      });
    });
    await publish(id);
    return done;
  };

  if (!options.natsUrl) {
    const broker = await inProcessBroker(options.root);
    await broker.subscribe('bench-runtime', 'cmd.bench.>', async (e) => {
      await broker.publish({ id: `evt-${e.id}`, subject: 'evt.bench.sent', payload: e.payload });
    });
    await broker.subscribe('bench-backend', 'evt.bench.>', async (e) => {
      arrived(String((e.payload as { id: string }).id));
    });
    const task = roundTrip((id) => broker.publish({ id, subject: 'cmd.bench.send', payload: { id, body: 'Seu pedido saiu para entrega' } }));
    await warmUp(task);
    const result = await paced({ rate: options.rate, durationMs: options.durationMs, drainMs: options.drainMs, task });
    return { ...result, what: "in-process broker (the product's): command → consumer → event → consumer" };
  }

  const nc = await connect({ servers: options.natsUrl, name: 'bench-baseline' });
  const jsm = await nc.jetstreamManager();
  const js = nc.jetstream();
  const tag = randomBytes(4).toString('hex');
  const stream = `BENCH_${tag}`;
  const prefix = `bench.${tag}`;
  const consumers: ConsumerMessages[] = [];
  try {
    await jsm.streams.add({ name: stream, subjects: [`${prefix}.>`], storage: StorageType.File, retention: RetentionPolicy.Limits });
    for (const [durable, filter] of [
      ['runtime', `${prefix}.cmd.>`],
      ['backend', `${prefix}.evt.>`],
    ] as const) {
      await jsm.consumers.add(stream, { durable_name: durable, filter_subject: filter, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All });
    }
    const runtimeSide = await (await js.consumers.get(stream, 'runtime')).consume();
    const backendSide = await (await js.consumers.get(stream, 'backend')).consume();
    consumers.push(runtimeSide, backendSide);
    void (async () => {
      for await (const m of runtimeSide) {
        const id = m.headers?.get('Nats-Msg-Id') ?? '';
        await js.publish(`${prefix}.evt.sent`, m.data, { msgID: `evt-${id}` });
        m.ack();
      }
    })();
    void (async () => {
      for await (const m of backendSide) {
        arrived(String((JSON.parse(new TextDecoder().decode(m.data)) as { id: string }).id));
        m.ack();
      }
    })();
    const encoder = new TextEncoder();
    const task = roundTrip(async (id) => {
      await js.publish(`${prefix}.cmd.send`, encoder.encode(JSON.stringify({ id, body: 'Seu pedido saiu para entrega' })), { msgID: id });
    });
    await warmUp(task);
    const result = await paced({ rate: options.rate, durationMs: options.durationMs, drainMs: options.drainMs, task });
    return { ...result, what: 'NATS JetStream: command publish (acked) → pull consumer → event publish (acked) → pull consumer' };
  } finally {
    for (const c of consumers) c.stop();
    await jsm.streams.delete(stream).catch(() => undefined);
    await nc.drain();
  }
}
