import type { Users } from '../identity/ports.js';
import { findQueue } from '../queues/find-queue.js';
import type { Queues } from '../queues/ports.js';
import { NotFoundError } from '../shared/errors.js';

/** Whom a ticket may be given to: a user of its company, a queue of its company. */
export class TicketTargets {
  constructor(private readonly deps: { readonly users: Pick<Users, 'findById'>; readonly queues: Queues }) {}

  /** 404 `ERR_NO_USER_FOUND` unless the user is the company's. */
  async assertUser(companyId: number, userId: number): Promise<void> {
    if (!(await this.deps.users.findById(companyId, userId))) throw new NotFoundError('ERR_NO_USER_FOUND');
  }

  /** 404 `ERR_QUEUE_NOT_FOUND` unless the queue is the company's. */
  async assertQueue(companyId: number, queueId: number): Promise<void> {
    await findQueue(this.deps.queues, companyId, queueId);
  }
}
