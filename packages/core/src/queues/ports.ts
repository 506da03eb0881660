import type { Page, PageRequest } from '../shared/paging.js';
import type { NewQueue, Queue } from './queue.js';
import type { NewQueueIntegration, QueueIntegration } from './queue-integration.js';
import type { NewQueueOption, QueueOption, QueueOptionKind } from './queue-option.js';

/**
 * A company's queues, the users of each (`queue_users`) and the queues of each connection
 * (`connection_queues`). Every method is scoped by `companyId`: another company's queue is never
 * returned, linked or changed, and links only ever join rows of the same company.
 */
export interface Queues {
  findById(companyId: number, id: number): Promise<Queue | null>;
  /** The company's queues among `ids`, by id; unknown ids are absent. */
  findByIds(companyId: number, ids: readonly number[]): Promise<Queue[]>;
  /** Compared ignoring case. */
  findByName(companyId: number, name: string): Promise<Queue | null>;
  /** By `orderQueue`, then id. */
  list(companyId: number): Promise<Queue[]>;
  countByCompany(companyId: number): Promise<number>;
  /** A second queue with the same name (ignoring case) in the company throws ConflictError `ERR_QUEUE_NAME_ALREADY_EXISTS`. */
  add(queue: NewQueue): Promise<Queue>;
  /** Saves every field; the same name rule as `add`. */
  update(queue: Queue): Promise<void>;
  /**
   * Removes the queue with its user and connection links and its menu (options and chatbots);
   * tickets in it stay, without a queue, and options elsewhere that forwarded to it forward nowhere.
   */
  remove(companyId: number, id: number): Promise<void>;

  /** The user ids of each queue, ascending; queues without users are absent. */
  usersOf(companyId: number, queueIds: readonly number[]): Promise<Map<number, number[]>>;
  /** Makes the queue's users exactly `userIds` (ignoring users of other companies). */
  setUsers(companyId: number, queueId: number, userIds: readonly number[]): Promise<void>;
  /** The queues a user belongs to, by `orderQueue`, then id. */
  listOfUser(companyId: number, userId: number): Promise<Queue[]>;

  /** The queues of each connection, by `orderQueue`, then id; connections without queues are absent. */
  ofConnections(companyId: number, connectionIds: readonly number[]): Promise<Map<number, Queue[]>>;
  /** Makes the connection's queues exactly `queueIds` (ignoring other companies' queues). */
  setConnectionQueues(companyId: number, connectionId: number, queueIds: readonly number[]): Promise<void>;
}

export interface QueueOptionQuery {
  readonly companyId: number;
  readonly queueId?: number;
  /** null: only the queue's first menu (roots); undefined: every level. */
  readonly parentId?: number | null;
  readonly kind?: QueueOptionKind;
}

/**
 * The menu trees of the queues (queue options and chatbots, see `QueueOption`). Scoped by
 * `companyId` like `Queues`.
 */
export interface QueueOptions {
  findById(companyId: number, id: number): Promise<QueueOption | null>;
  /** Every node the query selects, by id. */
  list(query: QueueOptionQuery): Promise<QueueOption[]>;
  /** A sibling with the same `option` (ignoring case) throws ConflictError `ERR_QUEUE_OPTION_ALREADY_EXISTS`. */
  add(option: NewQueueOption): Promise<QueueOption>;
  /** Saves every field; the same sibling rule as `add`. */
  update(option: QueueOption): Promise<void>;
  /** Removes the node and every node under it. */
  remove(companyId: number, id: number): Promise<void>;
}

export interface QueueIntegrationQuery {
  readonly companyId: number;
  /** In the name, case- and accent-insensitive. */
  readonly search?: string;
  readonly page: PageRequest;
}

/** A company's queue integrations. Scoped by `companyId` like `Queues`. */
export interface QueueIntegrations {
  findById(companyId: number, id: number): Promise<QueueIntegration | null>;
  /** Compared ignoring case. */
  findByName(companyId: number, name: string): Promise<QueueIntegration | null>;
  /** By name (folded), then id. */
  list(query: QueueIntegrationQuery): Promise<Page<QueueIntegration>>;
  /** A second integration with the same name (ignoring case) throws ConflictError `ERR_INTEGRATION_NAME_ALREADY_EXISTS`. */
  add(integration: NewQueueIntegration): Promise<QueueIntegration>;
  update(integration: QueueIntegration): Promise<void>;
  /** Removes it; queues that used it keep going without one. */
  remove(companyId: number, id: number): Promise<void>;
}

/** One call to an integration's endpoint. */
export interface IntegrationRequest {
  readonly url: string;
  readonly token: string | null;
  /** Signs the exact body sent (HMAC-SHA256, hex) when set. */
  readonly secret: string | null;
  /** Our id of this delivery: the same on every retry, so the receiver can drop repeats. */
  readonly deliveryId: string;
  readonly event: string;
  readonly payload: unknown;
}

/**
 * Hands conversations to the HTTP bots attached to queues. Adapters refuse loopback and private
 * addresses (ValidationError `ERR_URL_NOT_ALLOWED`) unless configured otherwise, and throw
 * ServiceUnavailableError `ERR_INTEGRATION_UNREACHABLE` when no answer came back.
 */
export interface ConversationIntegrations {
  /** POSTs the payload as JSON; resolves with the status of the answer, whatever it is. */
  post(request: IntegrationRequest): Promise<{ status: number }>;
}

export interface OutboxBacklog {
  readonly pending: number;
  readonly oldestCreatedAt: Date | null;
  /** Pending entries by the first three tokens of their subject (`cmd.session.send`): no ids. */
  readonly bySubject: Readonly<Record<string, number>>;
}

/** Counts about the platform's job queues, for `GET /debug-queues`: never a tenant's data. */
export interface JobQueueHealth {
  outboxBacklog(): Promise<OutboxBacklog>;
  /** Whether the broker answers now. */
  brokerConnected(): Promise<boolean>;
  /** Whether the cache answers now. */
  cacheConnected(): Promise<boolean>;
}
