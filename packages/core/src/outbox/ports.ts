/** A command or event waiting in the outbox, written in the transaction of the change that caused it. */
export interface OutboxEntry {
  /** Also the broker's deduplication id. */
  readonly id: string;
  readonly subject: string;
  readonly payload: unknown;
  readonly createdAt: Date;
}

export interface Outbox {
  add(entry: OutboxEntry): Promise<void>;
  /**
   * Several entries in one statement; an entry whose id is already there stays as it was (the
   * same event taken again from its provider: ids derived from the event, see RecordEvents).
   */
  addOnce(entries: readonly OutboxEntry[]): Promise<void>;
  /** Oldest unpublished entries first. */
  pending(limit: number): Promise<OutboxEntry[]>;
  /**
   * Marks entries handed to the broker. On a durable broker that is the end of their way
   * (`handled` true, the default); on a volatile one they wait for `markHandled`.
   */
  markPublished(ids: readonly string[], at: Date, options?: { readonly handled?: boolean }): Promise<void>;
  /** Volatile broker: the entries a consumer has handled, with what their handlers published. */
  markHandled(ids: readonly string[], at: Date): Promise<void>;
  /**
   * Volatile broker, at start-up (one process on the data): entries written since `since` that
   * were published but never handled were lost with the previous process's broker; they become
   * pending again. Answers how many.
   */
  requeueUnhandled(since: Date): Promise<number>;
}
