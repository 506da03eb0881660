import type { InMemoryConnections, InMemoryOutbox, InMemoryTickets } from './messaging.js';
import type {
  ConversationIntegrations,
  IntegrationRequest,
  JobQueueHealth,
  OutboxBacklog,
  QueueIntegrationQuery,
  QueueIntegrations,
  QueueOptionQuery,
  QueueOptions,
  Queues,
} from '../queues/ports.js';
import { byQueueOrder, type NewQueue, type Queue } from '../queues/queue.js';
import type { NewQueueIntegration, QueueIntegration } from '../queues/queue-integration.js';
import type { NewQueueOption, QueueOption } from '../queues/queue-option.js';
import { ConflictError, ServiceUnavailableError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';
import type { InMemoryUsers } from './identity.js';
import { compareFolded, InMemoryTable, slice } from './table.js';
import { subjectCounts } from '../outbox/subject-counts.js';

/** Menu nodes; the queues adapter removes a queue's nodes and clears forwards to it, as the database does. */
export class InMemoryQueueOptions implements QueueOptions {
  readonly table = new InMemoryTable<QueueOption>();
  /** With the tickets, a removed node leaves the tickets on it at the queue's first menu, as the database does. */
  constructor(private readonly tickets?: InMemoryTickets) {}

  async findById(companyId: number, id: number) {
    const o = this.table.get(id);
    return o?.companyId === companyId ? o : null;
  }
  async list(q: QueueOptionQuery) {
    return this.table
      .filter(
        (o) =>
          o.companyId === q.companyId &&
          (q.queueId === undefined || o.queueId === q.queueId) &&
          (q.parentId === undefined || o.parentId === q.parentId) &&
          (q.kind === undefined || o.kind === q.kind),
      )
      .sort((a, b) => a.id - b.id);
  }
  /** No await between the check and the write: concurrent callers cannot both take a key. */
  async add(option: NewQueueOption) {
    this.assertFreeKey(option);
    return this.table.insert(option);
  }
  async update(option: QueueOption) {
    if (this.table.get(option.id)?.companyId !== option.companyId) return;
    this.assertFreeKey(option, option.id);
    this.table.replace(option);
  }
  async remove(companyId: number, id: number) {
    if (this.table.get(id)?.companyId === companyId) this.removeTree(id);
  }
  /** What the foreign keys do when a queue or a user goes. */
  dropQueue(queueId: number) {
    for (const o of this.table.filter((x) => x.queueId === queueId)) this.removeTree(o.id);
    for (const o of this.table.filter((x) => x.forwardQueueId === queueId)) this.table.replace({ ...o, forwardQueueId: null });
  }
  private removeTree(id: number) {
    for (const child of this.table.filter((o) => o.parentId === id)) this.removeTree(child.id);
    this.table.delete(id);
    for (const t of this.tickets?.table.filter((x) => x.queueOptionId === id) ?? []) this.tickets!.table.replace({ ...t, queueOptionId: null });
  }
  private assertFreeKey(o: NewQueueOption, exceptId?: number) {
    const taken = this.table.find(
      (x) => x.queueId === o.queueId && x.parentId === o.parentId && x.id !== exceptId && x.option.toLowerCase() === o.option.toLowerCase(),
    );
    if (taken) throw new ConflictError('ERR_QUEUE_OPTION_ALREADY_EXISTS');
  }
}

/**
 * Queues with their user and connection links. With the other adapters it mirrors the database:
 * a removed queue leaves its tickets without a queue and takes its menus along, links to removed
 * users are ignored, and only a connection of the same company is linked.
 */
export class InMemoryQueues implements Queues {
  readonly table = new InMemoryTable<Queue>();
  private readonly members = new Map<number, Set<number>>();
  private readonly byConnection = new Map<number, Set<number>>();

  constructor(
    private readonly links: { tickets?: InMemoryTickets; options?: InMemoryQueueOptions; users?: InMemoryUsers; connections?: InMemoryConnections } = {},
  ) {}

  async findById(companyId: number, id: number) {
    const q = this.table.get(id);
    return q?.companyId === companyId ? q : null;
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    return this.table.filter((q) => q.companyId === companyId && ids.includes(q.id)).sort((a, b) => a.id - b.id);
  }
  async findByName(companyId: number, name: string) {
    return this.table.find((q) => q.companyId === companyId && q.name.toLowerCase() === name.toLowerCase());
  }
  async list(companyId: number) {
    return this.table.filter((q) => q.companyId === companyId).sort(byQueueOrder);
  }
  async countByCompany(companyId: number) {
    return (await this.list(companyId)).length;
  }
  async add(queue: NewQueue) {
    this.assertFreeName(queue.companyId, queue.name);
    return this.table.insert(queue);
  }
  async update(queue: Queue) {
    if (this.table.get(queue.id)?.companyId !== queue.companyId) return;
    this.assertFreeName(queue.companyId, queue.name, queue.id);
    this.table.replace(queue);
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return;
    this.table.delete(id);
    this.members.delete(id);
    for (const set of this.byConnection.values()) set.delete(id);
    this.links.options?.dropQueue(id);
    for (const t of this.links.tickets?.table.filter((x) => x.queueId === id) ?? [])
      this.links.tickets!.table.replace({ ...t, queueId: null, queueOptionId: null });
  }

  async usersOf(companyId: number, queueIds: readonly number[]) {
    const found = new Map<number, number[]>();
    for (const id of new Set(queueIds)) {
      if (this.table.get(id)?.companyId !== companyId) continue;
      const users = [...(this.members.get(id) ?? [])].filter((u) => this.isUser(companyId, u)).sort((a, b) => a - b);
      if (users.length) found.set(id, users);
    }
    return found;
  }
  async setUsers(companyId: number, queueId: number, userIds: readonly number[]) {
    if (this.table.get(queueId)?.companyId !== companyId) return;
    this.members.set(queueId, new Set(userIds.filter((u) => this.isUser(companyId, u))));
  }
  async listOfUser(companyId: number, userId: number) {
    return (await this.list(companyId)).filter((q) => this.members.get(q.id)?.has(userId) && this.isUser(companyId, userId));
  }
  /** The synchronous read behind `InMemoryUsers.queueIdsOf`. */
  queueIdsOfUser(companyId: number, userId: number): number[] {
    return this.table.filter((q) => q.companyId === companyId && Boolean(this.members.get(q.id)?.has(userId))).map((q) => q.id);
  }

  async ofConnections(companyId: number, connectionIds: readonly number[]) {
    const found = new Map<number, Queue[]>();
    for (const id of new Set(connectionIds)) {
      const queues = [...(this.byConnection.get(id) ?? [])]
        .map((q) => this.table.get(q))
        .filter((q): q is Queue => q?.companyId === companyId)
        .sort(byQueueOrder);
      if (queues.length) found.set(id, queues);
    }
    return found;
  }
  async setConnectionQueues(companyId: number, connectionId: number, queueIds: readonly number[]) {
    if (this.links.connections && this.links.connections.table.get(connectionId)?.companyId !== companyId) return;
    const kept = [...(this.byConnection.get(connectionId) ?? [])].filter((q) => this.table.get(q)?.companyId !== companyId);
    this.byConnection.set(connectionId, new Set([...kept, ...queueIds.filter((q) => this.table.get(q)?.companyId === companyId)]));
  }

  private isUser(companyId: number, userId: number) {
    return !this.links.users || this.links.users.table.get(userId)?.companyId === companyId;
  }
  private assertFreeName(companyId: number, name: string, exceptId?: number) {
    const holder = this.table.find((q) => q.companyId === companyId && q.name.toLowerCase() === name.toLowerCase());
    if (holder && holder.id !== exceptId) throw new ConflictError('ERR_QUEUE_NAME_ALREADY_EXISTS');
  }
}

export class InMemoryQueueIntegrations implements QueueIntegrations {
  readonly table = new InMemoryTable<QueueIntegration>();
  constructor(private readonly queues?: InMemoryQueues) {}

  async findById(companyId: number, id: number) {
    const i = this.table.get(id);
    return i?.companyId === companyId ? i : null;
  }
  async findByName(companyId: number, name: string) {
    return this.table.find((i) => i.companyId === companyId && i.name.toLowerCase() === name.toLowerCase());
  }
  async list(q: QueueIntegrationQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    const rows = this.table
      .filter((i) => i.companyId === q.companyId && (!term || foldForSearch(i.name).includes(term)))
      .sort((a, b) => compareFolded(a.name, b.name) || a.id - b.id);
    return slice(rows, q.page);
  }
  async add(integration: NewQueueIntegration) {
    this.assertFreeName(integration.companyId, integration.name);
    return this.table.insert(integration);
  }
  async update(integration: QueueIntegration) {
    if (this.table.get(integration.id)?.companyId !== integration.companyId) return;
    this.assertFreeName(integration.companyId, integration.name, integration.id);
    this.table.replace(integration);
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return;
    this.table.delete(id);
    for (const q of this.queues?.table.filter((x) => x.integrationId === id) ?? []) this.queues!.table.replace({ ...q, integrationId: null });
  }
  private assertFreeName(companyId: number, name: string, exceptId?: number) {
    const holder = this.table.find((i) => i.companyId === companyId && i.name.toLowerCase() === name.toLowerCase());
    if (holder && holder.id !== exceptId) throw new ConflictError('ERR_INTEGRATION_NAME_ALREADY_EXISTS');
  }
}

/**
 * A fake of the HTTP integrations for tests and embedding: keeps every request and answers
 * `status` (or fails as unreachable when `status` is null).
 */
export class RecordingConversationIntegrations implements ConversationIntegrations {
  readonly requests: IntegrationRequest[] = [];
  status: number | null = 200;
  async post(request: IntegrationRequest) {
    this.requests.push(structuredClone(request));
    if (this.status === null) throw new ServiceUnavailableError('ERR_INTEGRATION_UNREACHABLE');
    return { status: this.status };
  }
}

/** Counts of the in-memory outbox; the in-process broker is always there. */
export class InMemoryJobQueueHealth implements JobQueueHealth {
  constructor(private readonly outbox: InMemoryOutbox) {}

  async outboxBacklog(): Promise<OutboxBacklog> {
    const pending = this.outbox.entries.filter((e) => !e.publishedAt);
    const oldest = pending.reduce<Date | null>((min, e) => (!min || e.createdAt < min ? e.createdAt : min), null);
    return { pending: pending.length, oldestCreatedAt: oldest, bySubject: subjectCounts(pending.map((e) => e.subject)) };
  }
  async brokerConnected() {
    return true;
  }
  async cacheConnected() {
    return true;
  }
}
