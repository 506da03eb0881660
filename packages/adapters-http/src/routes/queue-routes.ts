import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam } from '../http/schemas.js';
import { schedulesBody } from './company-routes.js';

/** An id, or the lineage's "none" (`null`, `''`). */
export const nullableId = z.union([id, z.literal(''), z.null()]).transform((v) => (v === '' ? null : v));
const text = z.string().max(10_000).nullable();

/** Types only: the use cases check names, colors, hours and references and answer with their own codes. */
const queueBody = z.object({
  name: z.string().max(200),
  color: z.string().max(20),
  greetingMessage: text,
  outOfHoursMessage: text,
  schedules: schedulesBody.shape.schedules,
  orderQueue: z.number().int(),
  integrationId: nullableId,
  userIds: z.array(id).max(1000),
}).partial();

/**
 * Queues (read by every operator, written by admins; the plan caps how many) and the public
 * health of the job queues. `/queue/user` answers the caller's own queues.
 */
export function queueRoutes(app: Application) {
  const tag = 'Queues, tags, chatbots, campaigns';
  const byId = idParam('queueId');
  return [
    route({
      method: 'GET', path: '/queue', auth: 'isAuth', tag, summary: 'The company queues with their users, in menu order',
      handler: async ({ actor }) => app.listQueues.execute({ actor }),
    }),
    route({
      method: 'GET', path: '/queue/user', auth: 'isAuth', tag, summary: 'The queues the caller belongs to',
      handler: async ({ actor }) => app.listMyQueues.execute({ actor }),
    }),
    route({
      method: 'POST', path: '/queue', auth: 'isAuth', tag, summary: 'Create a queue (admin; 403 past the plan limit, 409 for a name in use)', status: 201,
      body: queueBody.required({ name: true }),
      handler: async ({ actor, body }) => app.createQueue.execute({ actor, ...body }),
    }),
    route({
      method: 'GET', path: '/queue/:queueId', auth: 'isAuth', tag, summary: 'Show a queue with its users', params: byId,
      handler: async ({ actor, params }) => app.showQueue.execute({ actor, queueId: params.queueId }),
    }),
    route({
      method: 'PUT', path: '/queue/:queueId', auth: 'isAuth', tag, summary: 'Update a queue; `userIds` replaces its users (admin)', params: byId,
      body: queueBody,
      handler: async ({ actor, params, body }) => app.updateQueue.execute({ actor, queueId: params.queueId, ...body }),
    }),
    route({
      method: 'DELETE', path: '/queue/:queueId', auth: 'isAuth', tag, summary: 'Delete a queue; its tickets stay, without a queue (admin)', params: byId,
      handler: async ({ actor, params }) => {
        await app.deleteQueue.execute({ actor, queueId: params.queueId });
        return { message: 'Queue deleted' };
      },
    }),
    route({
      method: 'GET', path: '/debug-queues', auth: 'none', tag,
      summary: 'Health of the job queues: outbox backlog, broker connectivity, background jobs (counts only, no tenant data)',
      handler: async () => app.jobQueueHealth.execute(),
    }),
  ];
}
