import type { Broker, BrokerEnvelope, BrokerSubscription, DeliveryInfo, SubscribeOptions } from '../messaging/broker.js';

interface Subscription {
  readonly handler: (e: BrokerEnvelope, info: DeliveryInfo) => Promise<void>;
  readonly options: SubscribeOptions;
}

interface Consumer {
  readonly subject: string;
  readonly pattern: RegExp;
  /** Index into the log of the next entry to look at. */
  cursor: number;
  /** Deliveries of the entry at the cursor that failed so far (kept across stop and resume). */
  failures: number;
  /** The current subscription; a stopped one is never called again. */
  active: Subscription | null;
  running: boolean;
}

/** NATS subject matching: `*` one token, `>` the rest. */
export function subjectPattern(subject: string): RegExp {
  const parts = subject.split('.').map((t) => (t === '*' ? '[^.]+' : t === '>' ? '.+' : t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('\\.')}$`);
}

/**
 * The embedded default broker, with the JetStream adapter's semantics in one process: a retained
 * log, durable consumers that resume where they stopped, deduplication by envelope id, ordered
 * delivery per consumer, and redelivery after a handler fails (up to `maxDeliver`).
 */
export class InProcessBroker implements Broker {
  private readonly log: BrokerEnvelope[] = [];
  private readonly seen = new Set<string>();
  private readonly consumers = new Map<string, Consumer>();
  /** Called when a message is given up after `maxDeliver` failures. */
  onGiveUp: (envelope: BrokerEnvelope, error: unknown) => void = () => undefined;

  async publish(envelope: BrokerEnvelope): Promise<void> {
    if (this.seen.has(envelope.id)) return;
    this.seen.add(envelope.id);
    this.log.push(structuredClone(envelope));
    for (const c of this.consumers.values()) this.pump(c);
  }

  async subscribe(durable: string, subject: string, handler: (e: BrokerEnvelope, info: DeliveryInfo) => Promise<void>, options: SubscribeOptions = {}): Promise<BrokerSubscription> {
    let consumer = this.consumers.get(durable);
    if (!consumer) {
      consumer = { subject, pattern: subjectPattern(subject), cursor: 0, failures: 0, active: null, running: false };
      this.consumers.set(durable, consumer);
    }
    if (consumer.subject !== subject) throw new Error(`durable ${durable} already consumes ${consumer.subject}, not ${subject}`);
    const c = consumer;
    const active: Subscription = { handler, options };
    c.active = active;
    this.pump(c);
    return { stop: async () => { if (c.active === active) c.active = null; } };
  }

  /** Resolves once every active consumer has handled everything published so far (tests). */
  async idle(): Promise<void> {
    for (let i = 0; i < 10_000; i++) {
      const busy = [...this.consumers.values()].some((c) => c.active && (c.running || this.nextIndex(c) >= 0));
      if (!busy) return;
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  private nextIndex(c: Consumer): number {
    for (let i = c.cursor; i < this.log.length; i++) if (c.pattern.test(this.log[i]!.subject)) return i;
    return -1;
  }

  private pump(c: Consumer): void {
    if (c.running || !c.active) return;
    c.running = true;
    void (async () => {
      try {
        // The subscription is read again before every delivery, retries included: a stopped
        // one is never called again, and a resumed durable continues the delivery count.
        for (let active = c.active; active; active = c.active) {
          const index = this.nextIndex(c);
          if (index < 0) { c.cursor = this.log.length; break; }
          c.cursor = index;
          const envelope = this.log[index]!;
          try {
            await active.handler(structuredClone(envelope), { deliveryCount: c.failures + 1 });
          } catch (err) {
            c.failures++;
            if (c.failures < (active.options.maxDeliver ?? 5)) {
              await new Promise((r) => setTimeout(r, active.options.retryDelayMs ?? 200));
              continue;
            }
            try { this.onGiveUp(envelope, err); } catch { /* a failing hook must not stop the consumer */ }
          }
          c.cursor = index + 1;
          c.failures = 0;
        }
      } finally {
        c.running = false;
      }
    })();
  }
}
