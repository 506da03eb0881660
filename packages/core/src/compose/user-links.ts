import type { Connections } from '../connections/ports.js';
import type { UserLinks, UserQueueRef } from '../identity/user-queues.js';
import type { Queues } from '../queues/ports.js';
import type { Queue } from '../queues/queue.js';

function refOf(queue: Queue, userId: number): UserQueueRef {
  return { id: queue.id, name: queue.name, color: queue.color, UserQueue: { userId, queueId: queue.id } };
}

/**
 * Identity's `UserLinks` over the queues and connections ports. The queue links are the queues
 * feature's (`queue_users`): a user's queue list is the set of queues whose members include the user.
 */
export class QueueUserLinks implements UserLinks {
  constructor(private readonly deps: { queues: Queues; connections: Connections }) {}

  async queuesOf(companyId: number, userIds: readonly number[]): Promise<Map<number, UserQueueRef[]>> {
    const { queues } = this.deps;
    const found = new Map<number, UserQueueRef[]>(userIds.map((id) => [id, []]));
    if (userIds.length === 1) {
      const userId = userIds[0]!;
      found.set(
        userId,
        (await queues.listOfUser(companyId, userId)).map((q) => refOf(q, userId)),
      );
      return found;
    }
    if (!userIds.length) return found;
    const all = await queues.list(companyId);
    const members = await queues.usersOf(
      companyId,
      all.map((q) => q.id),
    );
    for (const queue of all) {
      for (const userId of members.get(queue.id) ?? []) found.get(userId)?.push(refOf(queue, userId));
    }
    return found;
  }

  async setQueues(companyId: number, userId: number, queueIds: readonly number[]): Promise<void> {
    const { queues } = this.deps;
    const wanted = new Set(await this.knownQueueIds(companyId, queueIds));
    const current = new Set((await queues.listOfUser(companyId, userId)).map((q) => q.id));
    const changed = [...new Set([...wanted, ...current])].filter((id) => wanted.has(id) !== current.has(id));
    if (!changed.length) return;
    const members = await queues.usersOf(companyId, changed);
    for (const queueId of changed) {
      const others = (members.get(queueId) ?? []).filter((id) => id !== userId);
      await queues.setUsers(companyId, queueId, wanted.has(queueId) ? [...others, userId] : others);
    }
  }

  async knownQueueIds(companyId: number, queueIds: readonly number[]): Promise<number[]> {
    return (await this.deps.queues.findByIds(companyId, [...new Set(queueIds)])).map((q) => q.id);
  }

  async hasConnection(companyId: number, connectionId: number): Promise<boolean> {
    return (await this.deps.connections.findById(companyId, connectionId)) !== null;
  }
}
