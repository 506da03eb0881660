import type { ConnectionView } from './connection.js';
import type { Queues } from '../queues/ports.js';
import { byQueueOrder, toQueueSummary, type QueueSummary } from '../queues/queue.js';

/** A connection as its routes answer it: with the queues its menu offers, in menu order. */
export interface ConnectionWithQueues extends ConnectionView {
  queues: QueueSummary[];
}

export async function withConnectionQueues(queues: Queues, companyId: number, views: readonly ConnectionView[]): Promise<ConnectionWithQueues[]> {
  const mine = views.filter((v) => v.companyId === companyId);
  const linked = mine.length
    ? await queues.ofConnections(
        companyId,
        mine.map((v) => v.id),
      )
    : new Map();
  return views.map((v) => ({ ...v, queues: [...(linked.get(v.id) ?? [])].sort(byQueueOrder).map(toQueueSummary) }));
}
