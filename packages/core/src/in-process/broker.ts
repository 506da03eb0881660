import { AsyncLocalStorage } from 'node:async_hooks';
import type { Broker, BrokerEnvelope, BrokerSubscription, DeliveryInfo, SubscribeOptions } from '../outbox/broker.js';
import { isRetryable } from '../shared/retryable.js';

interface Subscription {
  readonly handler: (e: BrokerEnvelope, info: DeliveryInfo) => Promise<void>;
  readonly options: SubscribeOptions;
}

interface Consumer {
  readonly subject: string;
  readonly pattern: RegExp;
  /** Sequence number of the next message to look at (everything before it is handled or not for it). */
  cursor: number;
  /** Deliveries of the message at the cursor that failed so far (kept across stop and resume). */
  failures: number;
  /** The current subscription; a stopped one is never called again. */
  active: Subscription | null;
  running: boolean;
  /** Set while a consumer running side by side waits with places free: a new message wakes it. */
  wake: (() => void) | null;
}

/**
 * How much the in-process broker keeps. Its log is trimmed from the oldest end: a message stays
 * while some durable (active or stopped) still has to handle it; once none has, only the newest
 * `replayLimit` such messages stay, for durables that subscribe later (as a new JetStream
 * consumer starts from what its stream still holds). `maxMessages` bounds the whole log, pending
 * messages included, so that a durable that never comes back cannot hold memory forever.
 */
export interface InProcessBrokerOptions {
  /** Handled (or unwanted) messages kept for durables yet to subscribe. Default 1,000. */
  readonly replayLimit?: number;
  /**
   * The most messages held at all. Beyond it the oldest is dropped even if a durable has not
   * handled it (that durable goes on with the next one kept, and `onGiveUp` reports the drop),
   * like a JetStream stream that discards old messages at its limit. Default 100,000.
   */
  readonly maxMessages?: number;
  /** How long an envelope id is remembered to drop a repeated publish: JetStream's default window, 2 minutes. */
  readonly duplicateWindowMs?: number;
  /**
   * Offer `publishTracked`, so that the outbox relay keeps what this broker holds until it is
   * handled (the backend's embedded default; its database then needs the messaging feature's
   * `outbox_handling` table). Off by default: the relay then treats a hand-over as done.
   */
  readonly trackHandling?: boolean;
}

/**
 * The handling of one published message (see `publishTracked`): open while a consumer has yet to
 * handle it or a message its handler published is still open.
 */
interface Tracking {
  readonly id: string;
  /** 1 for its own handling, plus each open message its handler published. */
  open: number;
  readonly parent: Tracking | null;
  /** The consumers that were active when it was published and must pass it; empty means the first that does. */
  readonly waiting: Set<Consumer>;
  passed: boolean;
  readonly settle: () => void;
  readonly handled: Promise<void>;
}

const DEFAULT_REPLAY_LIMIT = 1_000;
const DEFAULT_MAX_MESSAGES = 100_000;
const DEFAULT_DUPLICATE_WINDOW_MS = 2 * 60_000;

/** NATS subject matching: `*` one token, `>` the rest. */
export function subjectPattern(subject: string): RegExp {
  const parts = subject.split('.').map((t) => (t === '*' ? '[^.]+' : t === '>' ? '.+' : t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  return new RegExp(`^${parts.join('\\.')}$`);
}

/**
 * The embedded default broker, with the JetStream adapter's semantics in one process: a retained
 * log, durable consumers that resume where they stopped, deduplication by envelope id within a
 * window, ordered delivery per consumer, and redelivery after a handler fails (up to
 * `maxDeliver`). What it retains is bounded: see {@link InProcessBrokerOptions}.
 */
export class InProcessBroker implements Broker {
  /** The retained messages, oldest first; `log[i]` has sequence number `first + i`. */
  private readonly log: BrokerEnvelope[] = [];
  private first = 0;
  /** Ids published within the duplicate window, oldest first, with when they were published. */
  private readonly seen = new Map<string, number>();
  private readonly consumers = new Map<string, Consumer>();
  private readonly replayLimit: number;
  private readonly maxMessages: number;
  private readonly duplicateWindowMs: number;
  /** Messages whose handling is still open, by id. */
  private readonly tracking = new Map<string, Tracking>();
  /** The message whose handler is running (what it publishes belongs to its handling). */
  private readonly handling = new AsyncLocalStorage<Tracking | undefined>();
  /** Called when a message is given up after `maxDeliver` failures, or dropped at `maxMessages` before a durable handled it. */
  onGiveUp: (envelope: BrokerEnvelope, error: unknown) => void = () => undefined;

  constructor(options: InProcessBrokerOptions = {}) {
    this.replayLimit = Math.max(0, options.replayLimit ?? DEFAULT_REPLAY_LIMIT);
    this.maxMessages = Math.max(1, options.maxMessages ?? DEFAULT_MAX_MESSAGES);
    this.duplicateWindowMs = Math.max(0, options.duplicateWindowMs ?? DEFAULT_DUPLICATE_WINDOW_MS);
    if (options.trackHandling) this.publishTracked = (envelope) => this.publishRoot(envelope);
  }

  async publish(envelope: BrokerEnvelope): Promise<void> {
    this.append(envelope, this.handling.getStore() ?? null);
  }

  /**
   * Publishes a message that starts its own handling (the outbox relay's): `handled` settles once
   * a consumer handled it and what its handler published meanwhile was handled too. A message
   * dropped as a duplicate answers the first one's handling (settled if that one is gone).
   */
  readonly publishTracked?: (envelope: BrokerEnvelope) => Promise<{ readonly handled: Promise<void> }>;

  private async publishRoot(envelope: BrokerEnvelope): Promise<{ readonly handled: Promise<void> }> {
    const t = this.append(envelope, null);
    return { handled: (t ?? this.tracking.get(envelope.id))?.handled ?? Promise.resolve() };
  }

  /** Appends to the log unless the id is a duplicate; answers the new message's handling. */
  private append(envelope: BrokerEnvelope, parent: Tracking | null): Tracking | null {
    const now = performance.now();
    this.forgetIdsBefore(now - this.duplicateWindowMs);
    if (this.seen.has(envelope.id)) return null;
    this.seen.set(envelope.id, now);
    const owner = parent && parent.open > 0 ? parent : null;
    if (owner) owner.open++;
    let settle!: () => void;
    const handled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const waiting = new Set([...this.consumers.values()].filter((c) => c.active && c.pattern.test(envelope.subject)));
    const t: Tracking = { id: envelope.id, open: 1, parent: owner, waiting, passed: false, settle, handled };
    this.tracking.set(envelope.id, t);
    this.log.push(structuredClone(envelope));
    this.trim();
    for (const c of this.consumers.values()) this.pump(c);
    return t;
  }

  /** Consumer `c` moved past the message (handled or given up). */
  private passed(c: Consumer, id: string): void {
    const t = this.tracking.get(id);
    if (!t || t.passed) return;
    t.waiting.delete(c);
    if (t.waiting.size) return;
    t.passed = true;
    this.close(t);
  }

  private close(t: Tracking | null): void {
    for (; t && --t.open === 0; t = t.parent) {
      this.tracking.delete(t.id);
      t.settle();
    }
  }

  async subscribe(
    durable: string,
    subject: string,
    handler: (e: BrokerEnvelope, info: DeliveryInfo) => Promise<void>,
    options: SubscribeOptions = {},
  ): Promise<BrokerSubscription> {
    let consumer = this.consumers.get(durable);
    if (!consumer) {
      consumer = { subject, pattern: subjectPattern(subject), cursor: 0, failures: 0, active: null, running: false, wake: null };
      this.consumers.set(durable, consumer);
    }
    if (consumer.subject !== subject) throw new Error(`durable ${durable} already consumes ${consumer.subject}, not ${subject}`);
    const c = consumer;
    const active: Subscription = { handler, options };
    c.active = active;
    this.pump(c);
    return {
      stop: async () => {
        if (c.active === active) c.active = null;
      },
    };
  }

  /** Resolves once every active consumer has handled everything published so far (tests). */
  async idle(): Promise<void> {
    for (let i = 0; i < 10_000; i++) {
      const busy = [...this.consumers.values()].some((c) => c.active && (c.running || this.nextSeq(c, c.cursor) >= 0));
      if (!busy) return;
      await new Promise((r) => setTimeout(r, 2));
    }
  }

  /** What the broker holds now: messages in its log and ids in its duplicate window (tests, diagnostics). */
  retained(): { messages: number; ids: number } {
    this.forgetIdsBefore(performance.now() - this.duplicateWindowMs);
    return { messages: this.log.length, ids: this.seen.size };
  }

  /** The sequence number of the consumer's next message from `from` on, or -1 when it has none. */
  private nextSeq(c: Consumer, from: number): number {
    for (let i = Math.max(0, from - this.first); i < this.log.length; i++) {
      if (c.pattern.test(this.log[i]!.subject)) return this.first + i;
    }
    return -1;
  }

  /** Whether a durable has yet to handle the message at log index `i`. */
  private pending(i: number): boolean {
    const seq = this.first + i;
    const subject = this.log[i]!.subject;
    for (const c of this.consumers.values()) if (c.cursor <= seq && c.pattern.test(subject)) return true;
    return false;
  }

  /** Drops the oldest messages beyond the limits (see InProcessBrokerOptions). */
  private trim(): void {
    let drop = 0;
    for (; this.log.length - drop > this.maxMessages; drop++) {
      if (!this.pending(drop)) continue;
      const envelope = this.log[drop]!;
      for (const c of this.consumers.values()) this.passed(c, envelope.id);
      try {
        this.onGiveUp(envelope, new Error(`in-process broker: dropped at its limit of ${this.maxMessages} messages before every durable handled it`));
      } catch {
        /* a failing hook must not stop the broker */
      }
    }
    while (this.log.length - drop > this.replayLimit && !this.pending(drop)) drop++;
    if (drop === 0) return;
    // What no consumer will ever handle now stays open (its outbox entry is relayed at the next start).
    for (let i = 0; i < drop; i++) this.tracking.delete(this.log[i]!.id);
    this.log.splice(0, drop);
    this.first += drop;
  }

  private forgetIdsBefore(time: number): void {
    for (const [id, at] of this.seen) {
      if (at >= time) break;
      this.seen.delete(id);
    }
  }

  private pump(c: Consumer): void {
    if (c.running) c.wake?.();
    if (c.running || !c.active) return;
    c.running = true;
    const limit = Math.max(1, Math.floor(c.active.options.concurrency ?? 1));
    void (limit > 1 ? this.consumeSideBySide(c, limit) : this.consumeInOrder(c)).finally(() => {
      c.running = false;
      // Published between the last look and now: go on.
      if (c.active && this.nextSeq(c, c.cursor) >= 0) this.pump(c);
    });
  }

  /** One delivery at a time, in order; a failed one is retried before the next. */
  private async consumeInOrder(c: Consumer): Promise<void> {
    // The subscription is read again before every delivery, retries included: a stopped
    // one is never called again, and a resumed durable continues the delivery count.
    for (let active = c.active; active; active = c.active) {
      const seq = this.nextSeq(c, c.cursor);
      if (seq < 0) {
        c.cursor = this.first + this.log.length;
        break;
      }
      // The message that failed before was dropped at the limit: this one starts counting anew.
      if (seq !== c.cursor) c.failures = 0;
      c.cursor = seq;
      const envelope = this.log[seq - this.first]!;
      try {
        await this.deliver(active, envelope, c.failures + 1);
      } catch (err) {
        c.failures++;
        if (isRetryable(err) && c.failures < (active.options.maxDeliver ?? 5)) {
          await new Promise((r) => setTimeout(r, active.options.retryDelayMs ?? 200));
          continue;
        }
        this.giveUp(envelope, err);
      }
      c.cursor = seq + 1;
      c.failures = 0;
      this.passed(c, envelope.id);
      this.trim();
    }
  }

  /**
   * Up to `limit` deliveries at once (order given up, as with JetStream's `max_ack_pending`), each
   * retried on its own. The cursor stays at the oldest message not yet handled, so a durable that
   * stops and comes back starts there (what was handled after it may come again: at least once).
   */
  private async consumeSideBySide(c: Consumer, limit: number): Promise<void> {
    const inFlight = new Map<number, Promise<void>>();
    /** Messages whose retries stopped with the subscription: handled when the durable comes back. */
    const unfinished = new Set<number>();
    let next = c.cursor;
    const moveCursor = () => {
      c.cursor = Math.min(next, ...inFlight.keys(), ...unfinished);
    };
    for (let active = c.active; active; active = c.active) {
      const seq = this.nextSeq(c, next);
      if (seq < 0) {
        if (inFlight.size === 0) break;
        // A place is free: the next message published, or a delivery finishing, moves on.
        await Promise.race([
          ...inFlight.values(),
          new Promise<void>((resolve) => {
            c.wake = resolve;
          }),
        ]);
        c.wake = null;
        continue;
      }
      next = seq + 1;
      const envelope = this.log[seq - this.first]!;
      const subscription = active;
      const done = (async () => {
        for (let failures = 0; ; failures++) {
          // A stopped subscription is never called again; its message waits for the next one.
          if (c.active !== subscription) {
            unfinished.add(seq);
            return;
          }
          try {
            await this.deliver(subscription, envelope, failures + 1);
            break;
          } catch (err) {
            if (isRetryable(err) && failures + 1 < (subscription.options.maxDeliver ?? 5)) {
              await new Promise((r) => setTimeout(r, subscription.options.retryDelayMs ?? 200));
              continue;
            }
            this.giveUp(envelope, err);
            break;
          }
        }
        this.passed(c, envelope.id);
      })().finally(() => {
        inFlight.delete(seq);
        moveCursor();
        this.trim();
      });
      inFlight.set(seq, done);
      moveCursor();
      if (inFlight.size >= limit) await Promise.race(inFlight.values());
    }
    await Promise.all(inFlight.values());
    // Everything seen was handled (or waits in `unfinished`): next time, start after it.
    if (!unfinished.size && c.active) next = Math.max(next, this.first + this.log.length);
    moveCursor();
  }

  private deliver(active: Subscription, envelope: BrokerEnvelope, deliveryCount: number): Promise<void> {
    return this.handling.run(this.tracking.get(envelope.id), () => active.handler(structuredClone(envelope), { deliveryCount }));
  }

  private giveUp(envelope: BrokerEnvelope, err: unknown): void {
    try {
      this.onGiveUp(envelope, err);
    } catch {
      /* a failing hook must not stop the consumer */
    }
  }
}
