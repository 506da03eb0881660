import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { withUsers, type QueueWithUsers } from './manage-queues.js';
import type { QueueOptions, Queues } from './ports.js';
import type { Queue } from './queue.js';
import type { QueueEvent } from './queue-events.js';

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
