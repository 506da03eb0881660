/** A queue as a user's record shows it (the lineage's shape, with its link row `UserQueue`). */
export interface UserQueueRef {
  readonly id: number;
  readonly name: string;
  readonly color: string;
  readonly UserQueue: { readonly userId: number; readonly queueId: number };
}

/**
 * What a user's record links to outside identity: their queues (the queues feature keeps the
 * links) and the default connection. Identity declares it; the composition implements it over the
 * queues and connections ports (`compose/user-links.ts`), so identity imports neither feature.
 */
export interface UserLinks {
  /** The queues of each user (by `orderQueue`, then id); users without queues get an empty list. */
  queuesOf(companyId: number, userIds: readonly number[]): Promise<Map<number, UserQueueRef[]>>;
  /** Makes the user's queues exactly those of `queueIds` that belong to the company (others are ignored). */
  setQueues(companyId: number, userId: number, queueIds: readonly number[]): Promise<void>;
  /** Those of `queueIds` that are queues of the company. */
  knownQueueIds(companyId: number, queueIds: readonly number[]): Promise<number[]>;
  /** Whether the connection is one of the company's. */
  hasConnection(companyId: number, connectionId: number): Promise<boolean>;
}
