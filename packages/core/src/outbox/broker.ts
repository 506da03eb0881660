import { fnv1a32 } from '../shared/hash.js';

/**
 * The message broker between backend and channel runtime. Publishing is deduplicated by the
 * envelope id; a handler that throws gets the message again later (at-least-once), so handlers
 * are idempotent. Adapters: NATS JetStream, and in-process with the same semantics.
 *
 * Payloads are JSON values. Deduplication by id holds for a window (two minutes on JetStream),
 * not forever: handlers must be idempotent. A durable name is a plain token (no `.`, `*`, `>`
 * or spaces), is bound to one subject, and a subject filter must fall inside one stream
 * (`cmd.>` or `evt.>`, not `>`). Defaults: `maxDeliver` 5, `retryDelayMs` 200.
 */
export interface BrokerEnvelope<T = unknown> {
  readonly id: string;
  readonly subject: string;
  readonly payload: T;
}

export interface DeliveryInfo {
  /** 1 on the first delivery. */
  readonly deliveryCount: number;
}

export interface SubscribeOptions {
  /** Deliveries after which a message is given up (and logged). */
  readonly maxDeliver?: number;
  /** Delay before a failed message is delivered again. */
  readonly retryDelayMs?: number;
  /**
   * How many deliveries may run at once (default 1). Above 1, order is given up: for handlers
   * whose effect does not depend on order (forward-only status changes, for example), and a
   * durable that stops and comes back may see again what it handled meanwhile (at least once).
   */
  readonly concurrency?: number;
}

/** Resolves once no handler of the subscription is running; the durable position is kept. */
export interface BrokerSubscription {
  stop(): Promise<void>;
}

export interface Broker {
  /** Called when a message is given up after `maxDeliver` failed deliveries (log it). */
  onGiveUp: (envelope: BrokerEnvelope, error: unknown) => void;
  publish(envelope: BrokerEnvelope): Promise<void>;
  /**
   * A durable consumer: messages published while it was away are delivered when it comes back.
   * `subject` may end in `>` to match every deeper subject. Deliveries to one consumer are
   * handled one at a time, in order, unless `concurrency` says otherwise.
   */
  subscribe(
    durable: string,
    subject: string,
    handler: (envelope: BrokerEnvelope, info: DeliveryInfo) => Promise<void>,
    options?: SubscribeOptions,
  ): Promise<BrokerSubscription>;
  /**
   * Only on a broker that keeps nothing across a crash (the in-process one; JetStream is durable
   * and has none). Publishes as `publish` does and answers `handled`, which settles once a consumer
   * has handled the message and every message its handler published meanwhile (a send's `sent`
   * event) has been handled in turn. Until then a crash would lose it: the outbox keeps such an
   * entry and relays it again at the next start (see RelayOutbox).
   */
  publishTracked?(envelope: BrokerEnvelope): Promise<{ readonly handled: Promise<void> }>;
}

/** Subjects between backend (commands) and channel runtime (events). */
/** How many inbound shards the backend consumes in parallel (each one in order). */
export const INBOUND_SHARDS = 8;

/** The shard of a conversation (a sender on a connection); a stable FNV-1a hash of both. */
export function inboundShard(chatappId: number, from: string): number {
  return fnv1a32(`${chatappId}:${from}`) % INBOUND_SHARDS;
}

export const SUBJECTS = {
  sessionSend: (connectionId: number) => `cmd.session.send.${connectionId}`,
  socialSend: (connectionId: number) => `cmd.social.send.${connectionId}`,
  sessionControl: (connectionId: number) => `cmd.session.control.${connectionId}`,
  sessionEdit: (connectionId: number) => `cmd.session.edit.${connectionId}`,
  sessionRevoke: (connectionId: number) => `cmd.session.revoke.${connectionId}`,
  messageSent: 'evt.message.sent',
  messageFailed: 'evt.message.failed',
  messageStatus: 'evt.message.status',
  /** Inbound messages, sharded by conversation: one conversation stays in order, others run side by side. */
  inbound: (shard: number) => `evt.inbound.${shard}`,
  sessionStatus: 'evt.session.status',
  /** A contact typing or recording (ephemeral: published, never kept in the outbox; a lost one is harmless). */
  contactPresence: 'evt.presence.contact',
  runtimeOnline: 'evt.runtime.online',
} as const;
