import type { Broker, BrokerEnvelope, BrokerSubscription, DeliveryInfo, SubscribeOptions } from '../messaging/broker.js';

interface Consumer {
  readonly pattern: RegExp;
  /** Index into the log of the next entry to look at. */
  cursor: number;
  handler: ((e: BrokerEnvelope, info: DeliveryInfo) => Promise<void>) | null;
  options: SubscribeOptions;
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
      consumer = { pattern: subjectPattern(subject), cursor: 0, handler: null, options, running: false };
      this.consumers.set(durable, consumer);
    }
    consumer.handler = handler;
    consumer.options = options;
    this.pump(consumer);
    const c = consumer;
    return { stop: async () => { c.handler = null; } };
  }

  /** Resolves once every active consumer has handled everything published so far (tests). */
  async idle(): Promise<void> {
    for (let i = 0; i < 10_000; i++) {
      const busy = [...this.consumers.values()].some((c) => c.handler && (c.running || this.nextIndex(c) >= 0));
      if (!busy) return;
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  private nextIndex(c: Consumer): number {
    for (let i = c.cursor; i < this.log.length; i++) if (c.pattern.test(this.log[i]!.subject)) return i;
    return -1;
  }

  private pump(c: Consumer): void {
    if (c.running || !c.handler) return;
    c.running = true;
    void (async () => {
      try {
        for (;;) {
          const handler = c.handler;
          if (!handler) break;
          const index = this.nextIndex(c);
          if (index < 0) { c.cursor = this.log.length; break; }
          const envelope = this.log[index]!;
          const maxDeliver = c.options.maxDeliver ?? 5;
          for (let attempt = 1; ; attempt++) {
            try {
              await handler(structuredClone(envelope), { deliveryCount: attempt });
              break;
            } catch (err) {
              if (attempt >= maxDeliver) { this.onGiveUp(envelope, err); break; }
              await new Promise((r) => setTimeout(r, c.options.retryDelayMs ?? 200));
              if (!c.handler) return;
            }
          }
          c.cursor = index + 1;
        }
      } finally {
        c.running = false;
      }
    })();
  }
}
