import {
  AckPolicy,
  connect,
  DeliverPolicy,
  DiscardPolicy,
  nanos,
  RetentionPolicy,
  StorageType,
  type ConsumerConfig,
  type JetStreamClient,
  type JetStreamManager,
  type JsMsg,
  type NatsConnection,
} from 'nats';
import { isRetryable, type Broker, type BrokerEnvelope, type BrokerSubscription, type DeliveryInfo, type SubscribeOptions } from '@servicedesk/core';

/** A stream and the subjects it retains. */
export interface JetStreamStreamSpec {
  readonly name: string;
  readonly subjects: readonly string[];
}

export interface JetStreamBrokerOptions {
  /** Defaults to `SD_CMD` for `cmd.>` and `SD_EVT` for `evt.>`. */
  readonly streams?: readonly JetStreamStreamSpec[];
  /** The connection name shown by the server. */
  readonly name?: string;
  /** How long messages are retained (default 7 days). */
  readonly maxAgeMs?: number;
  /** How long an envelope id is remembered for deduplication (default 2 minutes). */
  readonly duplicateWindowMs?: number;
  /** How long a delivery may stay unacknowledged before the server redelivers it (default 30 s). */
  readonly ackWaitMs?: number;
  /**
   * A deployment's prefix (`NATS_PREFIX`), so that several deployments share one server: streams
   * become `<prefix>_<name>`, subjects `<prefix>.<subject>` and durables `<prefix>_<durable>`.
   * Handlers still see the logical subjects (`evt.message.sent`). Empty (the default): names unchanged.
   */
  readonly prefix?: string;
}

/** A token NATS accepts in subjects, stream and durable names alike. */
const PREFIX_TOKEN = /^[A-Za-z0-9_-]+$/;

/** `subject` under a deployment's prefix (`NATS_PREFIX`); unchanged without one. */
export function natsSubject(prefix: string, subject: string): string {
  if (!prefix) return subject;
  if (!PREFIX_TOKEN.test(prefix)) throw new Error(`NATS_PREFIX must be letters, digits, "_" or "-" (no dots or wildcards), not "${prefix}"`);
  return `${prefix}.${subject}`;
}

/** A stream or durable name under a deployment's prefix; unchanged without one. */
function prefixedName(prefix: string, name: string): string {
  natsSubject(prefix, name);
  return prefix ? `${prefix}_${name}` : name;
}

export const DEFAULT_JETSTREAM_STREAMS: readonly JetStreamStreamSpec[] = [
  { name: 'SD_CMD', subjects: ['cmd.>'] },
  { name: 'SD_EVT', subjects: ['evt.>'] },
];

type Handler = (envelope: BrokerEnvelope, info: DeliveryInfo) => Promise<void>;
const MSG_ID = 'Nats-Msg-Id';
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** True when every subject `filter` matches is also matched by `pattern` (NATS wildcards). */
export function subjectCovers(pattern: string, filter: string): boolean {
  const p = pattern.split('.');
  const f = filter.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return f.length > i;
    const token = f[i];
    if (token === undefined || token === '>') return false;
    if (p[i] !== '*' && (p[i] !== token || token === '*')) return false;
  }
  return f.length === p.length;
}

/**
 * The broker over NATS JetStream. Publishing waits for the stream's acknowledgement, with the
 * envelope id as `Nats-Msg-Id` (deduplicated within the stream's duplicate window). Each durable is
 * a pull consumer with explicit acks and at most one unacknowledged message, so one consumer
 * handles its messages one at a time, in order; a failure is nak'ed with the retry delay and,
 * once `maxDeliver` deliveries have failed, terminated and reported to `onGiveUp`.
 */
export class JetStreamBroker implements Broker {
  /** Called when a message is given up after `maxDeliver` failed deliveries (or cannot be decoded). */
  onGiveUp: (envelope: BrokerEnvelope, error: unknown) => void = () => undefined;
  /** Called when consuming stops for a reason other than `stop()` (consumer deleted, permissions). */
  onError: (error: unknown) => void = (error) => {
    console.error('JetStreamBroker: consumer stopped', error);
  };
  private readonly running = new Set<BrokerSubscription>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly streams: readonly JetStreamStreamSpec[],
    private readonly ackWaitMs: number,
    private readonly prefix: string,
  ) {}

  static async connect(url: string, options: JetStreamBrokerOptions = {}): Promise<{ broker: JetStreamBroker; close(): Promise<void> }> {
    const streams = options.streams ?? DEFAULT_JETSTREAM_STREAMS;
    const prefix = options.prefix ?? '';
    natsSubject(prefix, 'check');
    const nc = await connect({ servers: url, name: options.name ?? 'servicedesk-broker', maxReconnectAttempts: -1 });
    try {
      const jsm = await nc.jetstreamManager();
      for (const spec of streams) {
        const name = prefixedName(prefix, spec.name);
        const config = {
          name,
          subjects: spec.subjects.map((subject) => natsSubject(prefix, subject)),
          storage: StorageType.File,
          retention: RetentionPolicy.Limits,
          discard: DiscardPolicy.Old,
          max_age: nanos(options.maxAgeMs ?? 7 * 24 * 3600_000),
          duplicate_window: nanos(options.duplicateWindowMs ?? 120_000),
        };
        // `add` is idempotent for an identical config; a changed one (subjects, ages) is an update.
        await jsm.streams.add(config).catch(async (err: unknown) => {
          if (
            !(await jsm.streams.info(name).then(
              () => true,
              () => false,
            ))
          )
            throw err;
          await jsm.streams.update(name, config);
        });
      }
      const broker = new JetStreamBroker(nc, nc.jetstream(), jsm, streams, options.ackWaitMs ?? 30_000, prefix);
      return { broker, close: () => broker.close() };
    } catch (err) {
      await nc.close();
      throw err;
    }
  }

  /** Stops every subscription (waiting for handlers in flight), then drains the connection. */
  async close(): Promise<void> {
    await Promise.all([...this.running].map((s) => s.stop()));
    if (!this.nc.isClosed()) await this.nc.drain();
  }

  /** Whether the server answers a round trip within `timeoutMs` (for health reports). */
  async connected(timeoutMs = 1000): Promise<boolean> {
    if (this.nc.isClosed()) return false;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), timeoutMs);
    });
    try {
      return await Promise.race([
        this.nc.flush().then(
          () => true,
          () => false,
        ),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  async publish(envelope: BrokerEnvelope): Promise<void> {
    this.streamFor(envelope.subject);
    const body = encoder.encode(JSON.stringify(envelope.payload ?? null));
    await this.js.publish(natsSubject(this.prefix, envelope.subject), body, { msgID: envelope.id });
  }

  async subscribe(logicalDurable: string, subject: string, handler: Handler, options: SubscribeOptions = {}): Promise<BrokerSubscription> {
    const stream = this.streamFor(subject);
    const durable = prefixedName(this.prefix, logicalDurable);
    const maxDeliver = options.maxDeliver ?? 5;
    const retryDelayMs = options.retryDelayMs ?? 200;
    const concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    await this.ensureConsumer(stream, durable, natsSubject(this.prefix, subject), maxDeliver, concurrency);
    const consumer = await this.js.consumers.get(stream, durable);
    const messages = await consumer.consume();
    let stopping = false;
    const inFlight = new Set<Promise<void>>();
    const done = (async () => {
      try {
        for await (const msg of messages) {
          // Fetched in the instant before `stop()` unsubscribed: give it straight back.
          if (stopping) {
            msg.nak();
            continue;
          }
          const handled: Promise<void> = this.handle(msg, handler, maxDeliver, retryDelayMs).finally(() => inFlight.delete(handled));
          inFlight.add(handled);
          // With concurrency 1 this waits for every message: one at a time, in order.
          if (inFlight.size >= concurrency) await Promise.race(inFlight);
        }
        await Promise.all(inFlight);
        const err = await messages.closed();
        if (err && !stopping) this.onError(err);
      } catch (err) {
        await Promise.allSettled(inFlight);
        if (!stopping) this.onError(err);
      }
    })();
    const subscription: BrokerSubscription = {
      stop: async () => {
        if (!stopping) {
          stopping = true;
          // Unsubscribe first: the ack of a message in flight then finds no pull request to refill.
          messages.stop();
        }
        await done;
        this.running.delete(subscription);
      },
    };
    this.running.add(subscription);
    return subscription;
  }

  private async handle(msg: JsMsg, handler: Handler, maxDeliver: number, retryDelayMs: number): Promise<void> {
    const deliveryCount = msg.info.redeliveryCount;
    const id = msg.headers?.get(MSG_ID) || `${msg.info.stream}:${msg.seq}`;
    // Handlers see the logical subject, without the deployment's prefix.
    const subject = this.prefix ? msg.subject.slice(this.prefix.length + 1) : msg.subject;
    let envelope: BrokerEnvelope;
    try {
      envelope = { id, subject, payload: JSON.parse(decoder.decode(msg.data)) };
    } catch (err) {
      msg.term();
      this.giveUp({ id, subject, payload: decoder.decode(msg.data) }, err);
      return;
    }
    // A slow handler keeps its message: "in progress" resets the server's ack timer.
    const keepAlive = setInterval(() => msg.working(), this.ackWaitMs / 3);
    try {
      await handler(envelope, { deliveryCount });
      msg.ack();
    } catch (err) {
      // A domain rule the message breaks will not heal: give it up now rather than retry it.
      if (deliveryCount >= maxDeliver || !isRetryable(err)) {
        msg.term();
        this.giveUp(envelope, err);
      } else {
        msg.nak(retryDelayMs);
      }
    } finally {
      clearInterval(keepAlive);
    }
  }

  private giveUp(envelope: BrokerEnvelope, error: unknown): void {
    try {
      this.onGiveUp(envelope, error);
    } catch {
      /* a failing hook must not stop the consumer */
    }
  }

  private async ensureConsumer(stream: string, durable: string, subject: string, maxDeliver: number, concurrency: number): Promise<void> {
    const settings = {
      max_ack_pending: concurrency,
      // One spare delivery: a message fetched just as `stop()` ran is nak'ed without being handled.
      max_deliver: maxDeliver + 1,
      ack_wait: nanos(this.ackWaitMs),
    };
    // The server would quietly move a durable to a new filter subject; that is a wiring mistake.
    const existing = await this.jsm.consumers.info(stream, durable).catch(() => null);
    if (existing && existing.config.filter_subject !== subject) {
      throw new Error(`durable ${durable} already consumes ${existing.config.filter_subject ?? stream}, not ${subject}`);
    }
    if (!existing) {
      const config: Partial<ConsumerConfig> = {
        durable_name: durable,
        filter_subject: subject,
        ack_policy: AckPolicy.Explicit,
        deliver_policy: DeliverPolicy.All,
        ...settings,
      };
      await this.jsm.consumers.add(stream, config);
    } else if (Object.entries(settings).some(([k, v]) => existing.config[k as keyof typeof settings] !== v)) {
      await this.jsm.consumers.update(stream, durable, settings);
    }
  }

  private streamFor(subject: string): string {
    const spec = this.streams.find((s) => s.subjects.some((p) => subjectCovers(p, subject)));
    if (!spec) throw new Error(`no JetStream stream retains ${subject} (streams: ${this.streams.map((s) => `${s.name} ${s.subjects.join(',')}`).join('; ')})`);
    return prefixedName(this.prefix, spec.name);
  }
}
