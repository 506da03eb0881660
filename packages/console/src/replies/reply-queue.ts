/**
 * Replies the operator sent, until the server has them. Each gets an idempotency key when typed,
 * so a retry (after a lost answer, a dropped connection, a reload of the queue) can never send
 * twice: the server answers a repeated key with the first result. While offline the replies wait
 * in order and go out, one at a time per conversation, when the connection is back.
 */

export type ReplyState = 'queued' | 'sending' | 'failed';

export interface Reply {
  readonly localId: string;
  readonly idempotencyKey: string;
  readonly ticketId: number;
  readonly body: string;
  readonly files: readonly File[];
  readonly quotedMsgId: string | null;
  readonly isPrivate: boolean;
  readonly createdAt: number;
  state: ReplyState;
  /** The server's error code when it refused the reply (not retried by itself). */
  error: string | null;
}

/** What sending answered: sent, refused for good (a 4xx but 409/429), or not known (network, 5xx, 409, 429). */
export type SendOutcome = { kind: 'sent' } | { kind: 'refused'; error: string } | { kind: 'unknown' };

export interface ReplyQueueDeps {
  send(reply: Reply): Promise<SendOutcome>;
  newId(): string;
  now(): number;
  setTimer?(run: () => void, ms: number): unknown;
}

type Listener = (replies: readonly Reply[]) => void;

export class ReplyQueue {
  private replies: Reply[] = [];
  private online = true;
  private readonly busy = new Set<number>();
  private readonly listeners = new Set<Listener>();
  private retryDelay = 500;

  constructor(private readonly deps: ReplyQueueDeps) {}

  /** The replies not yet accepted by the server, oldest first. */
  pending(ticketId?: number): readonly Reply[] {
    return ticketId === undefined ? this.replies : this.replies.filter((r) => r.ticketId === ticketId);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  add(input: { ticketId: number; body: string; files?: readonly File[]; quotedMsgId?: string | null; isPrivate?: boolean }): Reply {
    const reply: Reply = {
      localId: this.deps.newId(),
      idempotencyKey: this.deps.newId(),
      ticketId: input.ticketId,
      body: input.body,
      files: input.files ?? [],
      quotedMsgId: input.quotedMsgId ?? null,
      isPrivate: input.isPrivate ?? false,
      createdAt: this.deps.now(),
      state: 'queued',
      error: null,
    };
    this.replies.push(reply);
    this.changed();
    this.pump(reply.ticketId);
    return reply;
  }

  /** A refused reply sent again (the operator asked): the same key, so it still cannot double. */
  retry(localId: string): void {
    const reply = this.replies.find((r) => r.localId === localId);
    if (reply?.state !== 'failed') return;
    reply.state = 'queued';
    reply.error = null;
    this.changed();
    this.pump(reply.ticketId);
  }

  discard(localId: string): void {
    const reply = this.replies.find((r) => r.localId === localId);
    if (!reply || reply.state === 'sending') return;
    this.replies = this.replies.filter((r) => r !== reply);
    this.changed();
  }

  /** The connection to the server came and went. */
  setOnline(online: boolean): void {
    this.online = online;
    if (online) for (const ticketId of new Set(this.replies.map((r) => r.ticketId))) this.pump(ticketId);
  }

  /** Sends the oldest queued reply of a conversation, then the next: never two at once per conversation. */
  private pump(ticketId: number): void {
    if (!this.online || this.busy.has(ticketId)) return;
    const reply = this.replies.find((r) => r.ticketId === ticketId && r.state !== 'failed');
    if (!reply) return;
    this.busy.add(ticketId);
    reply.state = 'sending';
    this.changed();
    void this.deps
      .send(reply)
      .catch((): SendOutcome => ({ kind: 'unknown' }))
      .then((outcome) => {
        this.busy.delete(ticketId);
        if (outcome.kind === 'sent') {
          this.replies = this.replies.filter((r) => r !== reply);
          this.retryDelay = 500;
        } else if (outcome.kind === 'refused') {
          reply.state = 'failed';
          reply.error = outcome.error;
        } else {
          // Not known whether it arrived: try again later with the same key.
          reply.state = 'queued';
          const delay = this.retryDelay;
          this.retryDelay = Math.min(10_000, this.retryDelay * 2);
          this.changed();
          (this.deps.setTimer ?? setTimeout)(() => this.pump(ticketId), delay);
          return;
        }
        this.changed();
        this.pump(ticketId);
      });
  }

  private changed(): void {
    const snapshot = [...this.replies];
    for (const listener of this.listeners) listener(snapshot);
  }
}
