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
  /** Oldest unpublished entries first. */
  pending(limit: number): Promise<OutboxEntry[]>;
  markPublished(ids: readonly string[], at: Date): Promise<void>;
}
