import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { chatbotTrees, type ChatbotView } from './chatbots.js';
import type { QueueOptions, Queues } from './ports.js';
import { toQueueView, type Queue, type QueueView } from './queue.js';
import type { QueueEvent } from './queue-events.js';

export interface QueueUser {
  readonly id: number;
  readonly name: string;
}
/** A queue with its operators and its chatbot menu (the top-level chatbots, each with its subtree). */
export interface QueueWithUsers extends QueueView {
  users: QueueUser[];
  chatbots: ChatbotView[];
}

/** The queues with their operators (by name) and chatbot menus, as their routes answer them. */
export async function withUsers(
  deps: { queues: Queues; users: Users; options: QueueOptions },
  companyId: number,
  rows: readonly Queue[],
): Promise<QueueWithUsers[]> {
  const members = rows.length
    ? await deps.queues.usersOf(
        companyId,
        rows.map((q) => q.id),
      )
    : new Map<number, number[]>();
  const names = new Map((await deps.users.listAll(companyId)).map((u) => [u.id, u.name]));
  const bots =
    rows.length === 1
      ? await deps.options.list({ companyId, queueId: rows[0]!.id, kind: 'chatbot' })
      : rows.length
        ? await deps.options.list({ companyId, kind: 'chatbot' })
        : [];
  return rows.map((q) => ({
    ...toQueueView(q),
    users: (members.get(q.id) ?? []).flatMap((id) => (names.has(id) ? [{ id, name: names.get(id)! }] : [])),
    chatbots: chatbotTrees(bots, q.id),
  }));
}

/** Tells the company's users of a queue's changes (`queue` frames), as the queue with its operators and menu. */
export class QueueAnnouncer {
  constructor(
    private readonly deps: { readonly queues: Queues; readonly users: Users; readonly options: QueueOptions; readonly realtime: RealtimeEvents<QueueEvent> },
  ) {}

  /** A queue created or changed (action `update`, the lineage's); answers it as published. */
  async updated(companyId: number, queue: Queue): Promise<QueueWithUsers> {
    const view = (await withUsers(this.deps, companyId, [queue]))[0]!;
    await this.publish(companyId, { action: 'update', queue: view });
    return view;
  }

  /** A queue removed. */
  async deleted(companyId: number, queueId: number): Promise<void> {
    await this.publish(companyId, { action: 'delete', queueId });
  }

  private async publish(companyId: number, data: QueueEvent['data']): Promise<void> {
    await this.deps.realtime.publish(companyId, { entity: 'queue', data });
  }
}
