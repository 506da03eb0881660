import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam } from '../http/schemas.js';
import { jobQueueHealthSchema, queueDeletedSchema, queueListSchema, queueWithUsersListSchema, queueWithUsersSchema } from './queue-schemas.js';
import { chatbotStepSchema, nullableId } from './queue-option-routes.js';

export { nullableId };
const text = z.string().max(10_000).nullable();

const weekday = z.string().max(40).meta({ description: "The day's label, kept as given for the editor", example: 'Segunda-feira' });
const weekdayEn = z
  .enum(['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'])
  .meta({ description: 'Which day of the week', example: 'monday' });
const time = (description: string, example: string) => z.string().max(5).meta({ description, example });
/** A day as the lineage's queue editor sends it (two ranges), or a slot in the company's shape. */
const queueHours = z.union([
  z.object({
    weekday,
    weekdayEn,
    startTimeA: time('Start of the first range, `HH:MM`; with `endTimeA` also `""`: no first range', '08:00'),
    endTimeA: time('End of the first range, `HH:MM`, after its start', '12:00'),
    startTimeB: time('Start of the second range, `HH:MM`; with `endTimeB` also `""`: no second range', '13:00'),
    endTimeB: time('End of the second range, `HH:MM`, after its start', '18:00'),
  }),
  z.object({
    weekday,
    weekdayEn,
    startTime: time('Start of the range, `HH:MM`; with `endTime` also `""`: a day without hours', '08:00'),
    endTime: time('End of the range, `HH:MM`, after its start', '18:00'),
  }),
]);
/** The lineage's form sends `orderQueue` as typed: a number, digits, or `""` (not given). */
const orderQueue = z
  .union([z.number().int(), z.string().regex(/^\s*\d*\s*$/, 'a whole number')])
  .transform((v) => (typeof v === 'number' ? v : v.trim() === '' ? undefined : Number(v)))
  .meta({
    description: 'Its place in the menus (then by id), 0 to 100,000, as a number or digits; `""` or absent on a new queue: after the last queue',
    example: 1,
  });

/**
 * Types only: the use cases check names, colors, hours and references and answer with their own
 * codes. The lineage's editor sends the whole queue back with fields we do not model
 * (`ativarRoteador`, `fileListId`, `users`…): they are dropped.
 */
const queueBody = z
  .object({
    name: z.string().max(200).meta({ description: 'Trimmed, 1 to 100 characters, unique in the company ignoring case', example: 'Support' }),
    color: z.string().max(20).meta({ description: '`#rrggbb` in either case, stored lower case; absent on a new queue: `#7c7c7c`', example: '#7c7c7c' }),
    greetingMessage: text.meta({
      description: 'Sent when a ticket enters the queue; up to 4,000 characters; null or blank: none',
      example: 'Welcome to support!',
    }),
    outOfHoursMessage: text.meta({
      description: "Sent outside the queue's hours when the company schedules by queue; up to 4,000 characters; null or blank: none",
      example: 'We are closed now; we answer from 8am.',
    }),
    schedules: z.array(queueHours).max(28).meta({
      description:
        "The queue's business hours, replacing the stored ones: one entry a day (two ranges) or a range; at most 28 ranges in all (a day without ranges counts as one)",
    }),
    orderQueue,
    integrationId: nullableId.meta({
      description: 'The company\'s integration that receives its conversations (the plan must include integrations); null or `""`: none',
      example: null,
    }),
    /** Ours (the lineage's queue editor has no such field): absent keeps it on an edit. */
    promptId: id
      .nullable()
      .meta({ description: "The company's AI assistant (prompt) that answers its conversations while no operator has them; null: none", example: null }),
    userIds: z
      .array(id)
      .max(1000)
      .meta({
        description: 'Its operators, users of the company, replacing the current ones (duplicates count once); absent on an edit: unchanged',
        example: [2, 3],
      }),
    /** The chatbot steps of its menu: with `id` changed, without added (see `PUT /chatbot/:chatbotId` for a step's `options`). */
    chatbots: z
      .array(chatbotStepSchema)
      .max(100)
      .meta({
        description:
          "The top-level steps of its chatbot menu as the lineage's editor sends them: a step with the id of one of the queue's chatbots changes it, " +
          'any other is added; chatbots left out stay',
      }),
  })
  .partial();

const QUEUE_BODY_EXAMPLE = {
  name: 'Support',
  color: '#7c7c7c',
  greetingMessage: 'Welcome to support!',
  outOfHoursMessage: 'We are closed now; we answer from 8am.',
  schedules: [
    { weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' },
    { weekday: 'Sábado', weekdayEn: 'saturday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '', endTimeB: '' },
  ],
  orderQueue: 1,
  integrationId: null,
  promptId: null,
  userIds: [2, 3],
  chatbots: [{ name: 'Billing', greetingMessage: 'Tell us your invoice number.', queueType: 'text' }],
};

/**
 * Queues (read by every operator, written by admins; the plan caps how many) and the public
 * health of the job queues. `/queue/user` answers the caller's own queues.
 */
export function queueRoutes(app: Pick<Application, 'queues'>) {
  const tag = 'Queues, tags, chatbots, campaigns';
  const byId = idParam('queueId');
  return [
    route({
      method: 'GET',
      path: '/queue',
      auth: 'isAuth',
      tag,
      summary: 'The company queues with their users, in menu order',
      description: 'Any operator of the company. Ordered by `orderQueue`, then id.',
      response: queueWithUsersListSchema,
      handler: async ({ actor }) => app.queues.listQueues.execute({ actor }),
    }),
    route({
      method: 'GET',
      path: '/queue/user',
      auth: 'isAuth',
      tag,
      summary: 'The queues the caller belongs to',
      description: 'Any operator: the queues the caller is a user of, without their users.',
      response: queueListSchema,
      handler: async ({ actor }) => app.queues.listMyQueues.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/queue',
      auth: 'isAuth',
      tag,
      summary: 'Create a queue (admin; 403 past the plan limit, 409 for a name in use)',
      status: 201,
      description:
        "Admins only. Without `orderQueue` the queue goes after the last one; an `integrationId` needs the plan's `integrations` feature; a `promptId` is one of the company's prompts (its AI assistant). Emits `company-<id>-queue` (`action: 'update'`, the queue with its users).",
      response: queueWithUsersSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_QUEUE_CREATION_COUNT', 'ERR_PLAN_FEATURE_DISABLED'] },
        { status: 404, codes: ['ERR_NO_USER_FOUND', 'ERR_INTEGRATION_NOT_FOUND', 'ERR_NO_PROMPT_FOUND', 'ERR_QUEUE_NOT_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_NAME_ALREADY_EXISTS'] },
        {
          status: 422,
          codes: [
            'ERR_INVALID_QUEUE_NAME',
            'ERR_INVALID_QUEUE_COLOR',
            'ERR_QUEUE_TEXT_TOO_LONG',
            'ERR_INVALID_QUEUE_ORDER',
            'ERR_INVALID_SCHEDULES',
            'ERR_TOO_MANY_QUEUE_USERS',
            'ERR_QUEUE_OPTION_TOO_DEEP',
            'ERR_INVALID_QUEUE_OPTION_TITLE',
            'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG',
            'ERR_QUEUE_OPTION_ONE_ACTION',
          ],
        },
      ],
      body: queueBody.required({ name: true }).meta({ example: QUEUE_BODY_EXAMPLE }),
      handler: async ({ actor, body }) => app.queues.createQueue.execute({ actor, ...body }),
    }),
    route({
      method: 'GET',
      path: '/queue/:queueId',
      auth: 'isAuth',
      tag,
      summary: 'Show a queue with its users',
      params: byId,
      description: 'Any operator of the company.',
      response: queueWithUsersSchema,
      errors: [{ status: 404, codes: ['ERR_QUEUE_NOT_FOUND'] }],
      handler: async ({ actor, params }) => app.queues.showQueue.execute({ actor, queueId: params.queueId }),
    }),
    route({
      method: 'PUT',
      path: '/queue/:queueId',
      auth: 'isAuth',
      tag,
      summary: 'Update a queue; `userIds` replaces its users (admin)',
      params: byId,
      description: "Admins only: changes the fields given. Emits `company-<id>-queue` (`action: 'update'`, the queue with its users).",
      response: queueWithUsersSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'] },
        { status: 404, codes: ['ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND', 'ERR_INTEGRATION_NOT_FOUND', 'ERR_NO_PROMPT_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_NAME_ALREADY_EXISTS'] },
        {
          status: 422,
          codes: [
            'ERR_INVALID_QUEUE_NAME',
            'ERR_INVALID_QUEUE_COLOR',
            'ERR_QUEUE_TEXT_TOO_LONG',
            'ERR_INVALID_QUEUE_ORDER',
            'ERR_INVALID_SCHEDULES',
            'ERR_TOO_MANY_QUEUE_USERS',
            'ERR_QUEUE_OPTION_TOO_DEEP',
            'ERR_INVALID_QUEUE_OPTION_TITLE',
            'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG',
            'ERR_QUEUE_OPTION_ONE_ACTION',
          ],
        },
      ],
      body: queueBody.meta({ example: { greetingMessage: 'Welcome to support! An agent will be with you shortly.', userIds: [2, 3, 5] } }),
      handler: async ({ actor, params, body }) => app.queues.updateQueue.execute({ actor, queueId: params.queueId, ...body }),
    }),
    route({
      method: 'DELETE',
      path: '/queue/:queueId',
      auth: 'isAuth',
      tag,
      summary: 'Delete a queue; its tickets stay, without a queue (admin)',
      params: byId,
      description: "Admins only: its user links and menus go too. Emits `company-<id>-queue` (`action: 'delete'`, `queueId`).",
      response: queueDeletedSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_QUEUE_NOT_FOUND'] },
      ],
      handler: async ({ actor, params }) => {
        await app.queues.deleteQueue.execute({ actor, queueId: params.queueId });
        return { message: 'Queue deleted' as const };
      },
    }),
    route({
      method: 'GET',
      path: '/debug-queues',
      auth: 'none',
      tag,
      summary: 'Health: database, cache and broker connectivity, outbox backlog, background jobs (counts only, no tenant data)',
      description:
        'Public: no credential needed, and the answer names no tenant, id or payload. A dependency that does not answer makes it ' +
        '503 with the same report (`status: down`, `error` naming the first one down), for load balancers; a stuck outbox is `degraded` (200).',
      response: jobQueueHealthSchema,
      errors: [
        {
          status: 503,
          codes: ['ERR_DATABASE_UNAVAILABLE', 'ERR_CACHE_UNAVAILABLE', 'ERR_BROKER_UNAVAILABLE'],
          description: 'A dependency does not answer: the whole report, with `status: down` and `error`',
        },
      ],
      handler: async ({ ctx }) => {
        const report = await app.queues.jobQueueHealth.execute();
        if (report.status === 'down') ctx.state.responseStatus = 503;
        return report;
      },
    }),
  ];
}
