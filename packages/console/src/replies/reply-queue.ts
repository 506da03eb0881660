/**
 * Replies the operator sent, until the server has them. Each gets an idempotency key when typed,
 * so a retry (after a lost answer, a dropped connection, a reload of the queue) can never send
 * twice: the server answers a repeated key with the first result. While offline the replies wait
 * in order and go out, one at a time per conversation, when the connection is back.
 *
 * A reply still on its way can be cancelled: it goes back to the reply box it came from (with the
 * rest of what was sent with it), which takes it with `takeReturned`. The transport decides whether
 * a send in flight can still stop (an upload not yet complete); if not, its outcome stands.
 */

export type ReplyState = 'queued' | 'sending' | 'failed';

export interface Reply {
  readonly localId: string;
  readonly idempotencyKey: string;
  readonly ticketId: number;
  /** What is sent (with the signature, when the operator signs). */
  readonly body: string;
  /** The text as the operator typed it (without the signature): what goes back to the box on a cancel. */
  readonly draft: string;
  readonly files: readonly File[];
  readonly quotedMsgId: string | null;
  readonly isPrivate: boolean;
  readonly createdAt: number;
  /** The replies added together (`addAll`) share it: cancelling one returns the rest not yet sent with it. */
  readonly batch: string;
  state: ReplyState;
  /** The server's error code when it refused the reply (not retried by itself). */
  error: string | null;
  /** While sending files: the part uploaded, 0 to 1 (null before the transport reports any). */
  progress: number | null;
  /** An attempt's outcome was not known: the server may have it, so it can no longer be taken back. */
  mayHaveArrived: boolean;
}

/**
 * What sending answered: sent, refused for good (a 4xx but 409/429), not known (network, 5xx, 409,
 * 429), or cancelled (the operator stopped it before the server had the whole request).
 */
export type SendOutcome = { kind: 'sent' } | { kind: 'refused'; error: string } | { kind: 'unknown' } | { kind: 'cancelled' };

/** Given to the transport with each send. */
export interface SendControl {
  /** Aborted when the operator cancels; the transport answers `cancelled` only if the server cannot have the reply. */
  readonly signal: AbortSignal;
  /** The part of the files uploaded so far, 0 to 1. */
  progress(fraction: number): void;
}

export interface ReplyQueueDeps {
  send(reply: Reply, control: SendControl): Promise<SendOutcome>;
  newId(): string;
  now(): number;
  setTimer?(run: () => void, ms: number): unknown;
}

export interface ReplyInput {
  ticketId: number;
  body: string;
  /** The text as typed, when `body` adds to it (a signature); defaults to `body`. */
  draft?: string;
  files?: readonly File[];
  quotedMsgId?: string | null;
  isPrivate?: boolean;
}

type Listener = (replies: readonly Reply[]) => void;

export class ReplyQueue {
  private replies: Reply[] = [];
  private returned: Reply[] = [];
  private online = true;
  private readonly busy = new Set<number>();
  private readonly inFlight = new Map<Reply, AbortController>();
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

  add(input: ReplyInput): Reply {
    return this.addAll([input])[0]!;
  }

  /** Several replies typed together (a text and files with their captions), sent in this order. */
  addAll(inputs: readonly ReplyInput[]): Reply[] {
    const batch = this.deps.newId();
    const added = inputs.map(
      (input): Reply => ({
        localId: this.deps.newId(),
        idempotencyKey: this.deps.newId(),
        ticketId: input.ticketId,
        body: input.body,
        draft: input.draft ?? input.body,
        files: input.files ?? [],
        quotedMsgId: input.quotedMsgId ?? null,
        isPrivate: input.isPrivate ?? false,
        createdAt: this.deps.now(),
        batch,
        state: 'queued',
        error: null,
        progress: null,
        mayHaveArrived: false,
      }),
    );
    this.replies.push(...added);
    this.changed();
    for (const ticketId of new Set(added.map((r) => r.ticketId))) this.pump(ticketId);
    return added;
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

  /**
   * The operator takes a reply back: it and the later replies of its batch not yet sent return to
   * the box. One being sent is asked to stop; it returns only if its transport answers `cancelled`.
   * A reply the server may already have (an earlier attempt's outcome unknown) keeps going.
   */
  cancel(localId: string): void {
    const reply = this.replies.find((r) => r.localId === localId);
    if (!reply) return;
    const from = this.replies.indexOf(reply);
    const batch = this.replies.filter((r, i) => i >= from && r.batch === reply.batch && !r.mayHaveArrived);
    const back = batch.filter((r) => r.state !== 'sending');
    for (const r of batch) if (r.state === 'sending') this.inFlight.get(r)?.abort();
    if (back.length === 0) return;
    this.replies = this.replies.filter((r) => !back.includes(r));
    this.returned.push(...back);
    this.changed();
  }

  /** The replies of a conversation cancelled since last asked, oldest first (the box puts them back). */
  takeReturned(ticketId: number): Reply[] {
    const taken = this.returned.filter((r) => r.ticketId === ticketId);
    if (taken.length) this.returned = this.returned.filter((r) => r.ticketId !== ticketId);
    return taken;
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
    reply.progress = null;
    const abort = new AbortController();
    this.inFlight.set(reply, abort);
    this.changed();
    const control: SendControl = {
      signal: abort.signal,
      progress: (fraction) => {
        if (reply.state !== 'sending' || this.inFlight.get(reply) !== abort) return;
        reply.progress = Math.max(0, Math.min(1, fraction));
        this.changed();
      },
    };
    void new Promise<SendOutcome>((resolve) => resolve(this.deps.send(reply, control)))
      .catch((): SendOutcome => ({ kind: 'unknown' }))
      .then((outcome) => {
        this.busy.delete(ticketId);
        this.inFlight.delete(reply);
        reply.progress = null;
        if (outcome.kind === 'sent') {
          this.replies = this.replies.filter((r) => r !== reply);
          this.retryDelay = 500;
        } else if (outcome.kind === 'cancelled') {
          this.replies = this.replies.filter((r) => r !== reply);
          reply.state = 'queued';
          // Before the replies of its batch returned with it (they came after it).
          const at = this.returned.findIndex((r) => r.batch === reply.batch);
          this.returned.splice(at < 0 ? this.returned.length : at, 0, reply);
        } else if (outcome.kind === 'refused') {
          reply.state = 'failed';
          reply.error = outcome.error;
        } else {
          // Not known whether it arrived: try again later with the same key.
          reply.state = 'queued';
          reply.mayHaveArrived = true;
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
