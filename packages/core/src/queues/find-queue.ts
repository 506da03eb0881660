import { NotFoundError } from '../shared/errors.js';
import type { Queues } from './ports.js';
import type { Queue } from './queue.js';

/** The company's queue, or 404 `ERR_QUEUE_NOT_FOUND` (also for another company's). */
export async function findQueue(queues: Queues, companyId: number, queueId: number): Promise<Queue> {
  const queue = await queues.findById(companyId, queueId);
  if (!queue) throw new NotFoundError('ERR_QUEUE_NOT_FOUND');
  return queue;
}
