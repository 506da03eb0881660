import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import {
  chatbotDeletedSchema,
  chatbotPageSchema,
  chatbotSchema,
  chatbotTreeSchema,
  queueOptionDeletedSchema,
  queueOptionListSchema,
  queueOptionSchema,
} from './queue-schemas.js';

/** An id, or the lineage's "none" (`null`, `''`). */
export const nullableId = z.union([id, z.literal(''), z.null()]).transform((v) => (v === '' ? null : v));

/** An option key as typed in forms: a number or a short text. */
const optionKey = z.union([z.string().max(50), z.number().int().min(0).max(999_999_999)]).transform(String);
const text = z.string().max(10_000).nullable();
/** `parentId` of a list: an id, or `null`/`-1`/`0` for the queue's first menu. */
const parentFilter = z
  .union([z.enum(['null', '-1', '0']).transform(() => null), id])
  .meta({ description: "Only the options listed under this one; `null`, `-1` or `0`: the queue's first menu; absent: every level" });

/** Descriptions shared by the option and chatbot bodies and the chatbot steps. */
const MENU_LINE = 'The menu line, trimmed, 1 to 120 characters';
const PICKED_MESSAGE = 'Sent when the contact picks it, before its own menu; up to 4,000 characters; null or blank: none';
const OPTION_KEY =
  'What the contact types to pick it: a number or a keyword, 1 to 20 characters without line breaks or `*`, unique among its siblings ignoring case; ' +
  'absent on a new one: the next free number';
const ONE_ACTION = 'at most one of a forward queue, a forward user and `closeTicket`';
const CLOSES = `Picking it sends its message and closes the ticket (${ONE_ACTION}); absent on a new one: false`;

const optionBody = z
  .object({
    queueId: id.meta({
      description: "The queue whose first menu gets the option; not needed with `parentId` (the parent's queue is taken, another is refused). It never changes",
      example: 1,
    }),
    parentId: nullableId.meta({
      description: 'The option whose menu lists this one, of the same queue; null or `""`: the queue\'s first menu (also when absent on a new option)',
      example: null,
    }),
    title: z.string().max(500).meta({ description: MENU_LINE, example: 'Billing' }),
    message: text.meta({ description: PICKED_MESSAGE, example: 'Tell us your invoice number.' }),
    option: optionKey.meta({ description: OPTION_KEY, example: '1' }),
    forwardQueueId: nullableId.meta({
      description: `Picking it moves the ticket to this queue of the company (${ONE_ACTION}); null or \`""\`: no forward`,
      example: null,
    }),
    forwardUserId: nullableId.meta({
      description: `Picking it hands the ticket to this user of the company (${ONE_ACTION}); null or \`""\`: no hand-over`,
      example: null,
    }),
    closeTicket: z.boolean().meta({ description: CLOSES, example: false }),
  })
  .partial();

/** What a lineage chatbot step does when picked; `''` (a step not yet typed) means "not said". */
const queueType = z
  .enum(['text', 'queue', 'attendent', 'integration', 'file', ''])
  .transform((v) => (v === '' ? undefined : v))
  .meta({
    description:
      "The lineage's name of what picking it does: `queue` forwards to `optQueueId`, `attendent` hands over to the user `optUserId`; " +
      '`text`, `integration` and `file` only send its message (both targets cleared). `""` or absent: the targets given apply as they are',
    example: 'queue',
  });

/** A step as parsed (the core's `ChatbotStep`). */
interface ChatbotStepBody {
  id?: number;
  name: string;
  greetingMessage?: string | null;
  queueType?: 'text' | 'queue' | 'attendent' | 'integration' | 'file' | undefined;
  optQueueId?: number | null;
  optUserId?: number | null;
  closeTicket?: boolean;
  options?: ChatbotStepBody[];
}

/**
 * A chatbot step of the lineage's editors (a queue's `chatbots`, a chatbot's `options`): `id` for one
 * that exists, `queueType` with `optQueueId`/`optUserId` for what picking it does, its own `options`.
 * What we do not model (`optIntegrationId`, `optFileId`, `user`…) is dropped.
 */
export const chatbotStepSchema: z.ZodType<ChatbotStepBody, unknown> = z
  .object({
    id: id.optional().meta({ description: "One of the queue's chatbots, to change; absent or not one of them: the step is added", example: 21 }),
    name: z.string().max(500).meta({ description: MENU_LINE, example: 'Prices' }),
    greetingMessage: text.optional().meta({ description: PICKED_MESSAGE, example: 'Our price list is on the way.' }),
    queueType: queueType.optional(),
    optQueueId: nullableId.optional().meta({
      description: 'The queue picking it moves the ticket to (counts with `queueType` `queue`, or without `queueType`); null or `""`: none',
      example: 2,
    }),
    optUserId: nullableId.optional().meta({
      description: 'The user picking it hands the ticket to (counts with `queueType` `attendent`, or without `queueType`); null or `""`: none',
      example: null,
    }),
    closeTicket: z.boolean().optional().meta({ description: CLOSES, example: false }),
    get options() {
      return z.array(chatbotStepSchema).max(100).optional().meta({ description: 'The steps under this one, written the same way (steps left out stay)' });
    },
  })
  .meta({ id: 'ChatbotStep', description: "A chatbot step as the lineage's editors send it, with the steps under it" });

/** A step as the lineage's chatbot editor sends it: an existing chatbot, now forwarding to a queue. */
const CHATBOT_STEP_EXAMPLE = { id: 21, name: 'Prices', greetingMessage: 'Our price list is on the way.', queueType: 'queue', optQueueId: 2, options: [] };

const chatbotBody = z
  .object({
    queueId: id.meta({
      description:
        "The queue whose menu gets the chatbot at its top; not needed with `chatbotId` (the parent's queue is taken, another is refused). It never changes",
      example: 1,
    }),
    chatbotId: nullableId.meta({
      description: 'The chatbot it sits under, of the same queue; null or `""`: the top of the queue\'s menu (also when absent on a new chatbot)',
      example: null,
    }),
    name: z
      .string()
      .max(500)
      .meta({ description: `${MENU_LINE}; required on a new chatbot`, example: 'Sales bot' }),
    greetingMessage: text.meta({ description: PICKED_MESSAGE, example: 'What are you looking for?' }),
    option: optionKey.meta({ description: OPTION_KEY, example: '1' }),
    forwardQueueId: nullableId.meta({
      description: `Picking it moves the ticket to this queue of the company (${ONE_ACTION}); null or \`""\`: none. \`optQueueId\` wins when both come`,
      example: null,
    }),
    forwardUserId: nullableId.meta({
      description: `Picking it hands the ticket to this user of the company (${ONE_ACTION}); null or \`""\`: none. \`optUserId\` wins when both come`,
      example: null,
    }),
    closeTicket: z.boolean().meta({ description: CLOSES, example: false }),
    /** The lineage's names of the action and its targets: `queueType` decides which of `optQueueId` and `optUserId` counts. */
    queueType,
    optQueueId: nullableId.meta({ description: "The lineage's name of `forwardQueueId`; with `queueType`, it counts only for `queue`", example: null }),
    optUserId: nullableId.meta({ description: "The lineage's name of `forwardUserId`; with `queueType`, it counts only for `attendent`", example: null }),
    /** The steps under it, as the lineage's chatbot editor sends them. */
    options: z
      .array(chatbotStepSchema)
      .max(100)
      .meta({
        description:
          "The chatbots under it as the lineage's editor sends them: a step with the id of one of the queue's chatbots changes it, any other is added " +
          '(taking the next free number); steps left out stay',
      }),
  })
  .partial()
  .transform(({ queueType: type, optQueueId, optUserId, forwardQueueId, forwardUserId, ...rest }) => {
    if (type !== undefined) {
      return {
        ...rest,
        forwardQueueId: type === 'queue' ? (optQueueId ?? forwardQueueId ?? null) : null,
        forwardUserId: type === 'attendent' ? (optUserId ?? forwardUserId ?? null) : null,
      };
    }
    const queue = optQueueId !== undefined ? optQueueId : forwardQueueId;
    const user = optUserId !== undefined ? optUserId : forwardUserId;
    return { ...rest, ...(queue !== undefined ? { forwardQueueId: queue } : {}), ...(user !== undefined ? { forwardUserId: user } : {}) };
  });
const CHATBOT_BODY_EXAMPLE = {
  queueId: 1,
  name: 'Sales bot',
  greetingMessage: 'What are you looking for?',
  option: '1',
  queueType: 'text',
  options: [CHATBOT_STEP_EXAMPLE],
};

/**
 * The menu trees of queues: queue options and chatbots, two views of one tree that the routing
 * engine walks alike (a chatbot's `name`, `greetingMessage` and `chatbotId` are an option's
 * `title`, `message` and `parentId`). Every operator reads them; admins write them.
 */
export function queueOptionRoutes(app: Pick<Application, 'queues'>) {
  const tag = 'Queues, tags, chatbots, campaigns';
  const byOption = idParam('queueOptionId');
  const byChatbot = idParam('chatbotId');
  return [
    route({
      method: 'GET',
      path: '/queue-options',
      auth: 'isAuth',
      tag,
      summary: 'Queue options, of a queue (`queueId`) and one level (`parentId`, `null` or -1 for the first menu), in menu order',
      description: 'Any operator of the company. Without filters, every option of the company, by queue, level and menu order (numeric keys first).',
      response: queueOptionListSchema,
      query: z.object({ queueId: id.optional().meta({ description: "Only this queue's options", example: 1 }), parentId: parentFilter.optional() }),
      handler: async ({ actor, query }) => app.queues.listQueueOptions.execute({ actor, queueId: query.queueId, parentId: query.parentId }),
    }),
    route({
      method: 'POST',
      path: '/queue-options',
      auth: 'isAuth',
      tag,
      summary: "Add a menu option under `parentId` or to `queueId`'s first menu (admin)",
      status: 201,
      description:
        "Admins only. The option takes its parent's queue; without `option` it takes the next free number among its siblings. At most one action (forward to a queue, to a user, or close).",
      response: queueOptionSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_QUEUE_OPTION_NOT_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_OPTION_ALREADY_EXISTS'] },
        {
          status: 422,
          codes: [
            'ERR_QUEUE_REQUIRED',
            'ERR_QUEUE_OPTION_QUEUE_MISMATCH',
            'ERR_QUEUE_OPTION_TOO_DEEP',
            'ERR_INVALID_QUEUE_OPTION_TITLE',
            'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG',
            'ERR_INVALID_QUEUE_OPTION_KEY',
            'ERR_QUEUE_OPTION_ONE_ACTION',
          ],
        },
      ],
      body: optionBody.required({ title: true }).meta({ example: { queueId: 1, title: 'Billing', message: 'Tell us your invoice number.', option: '1' } }),
      handler: async ({ actor, body }) => app.queues.createQueueOption.execute({ actor, ...body }),
    }),
    route({
      method: 'GET',
      path: '/queue-options/:queueOptionId',
      auth: 'isAuth',
      tag,
      summary: 'Show a queue option',
      params: byOption,
      description: 'Any operator of the company.',
      response: queueOptionSchema,
      errors: [{ status: 404, codes: ['ERR_QUEUE_OPTION_NOT_FOUND'] }],
      handler: async ({ actor, params }) => app.queues.showQueueOption.execute({ actor, queueOptionId: params.queueOptionId }),
    }),
    route({
      method: 'PUT',
      path: '/queue-options/:queueOptionId',
      auth: 'isAuth',
      tag,
      summary: 'Edit or move a queue option (admin)',
      params: byOption,
      description: 'Admins only: changes the fields given; a move stays within the queue, never under the option itself.',
      response: queueOptionSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_QUEUE_OPTION_NOT_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_OPTION_ALREADY_EXISTS'] },
        {
          status: 422,
          codes: [
            'ERR_QUEUE_OPTION_QUEUE_MISMATCH',
            'ERR_QUEUE_OPTION_CYCLE',
            'ERR_QUEUE_OPTION_TOO_DEEP',
            'ERR_INVALID_QUEUE_OPTION_TITLE',
            'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG',
            'ERR_INVALID_QUEUE_OPTION_KEY',
            'ERR_QUEUE_OPTION_ONE_ACTION',
          ],
        },
      ],
      body: optionBody.meta({ example: { title: 'Billing and invoices', forwardQueueId: 2 } }),
      handler: async ({ actor, params, body }) => app.queues.updateQueueOption.execute({ actor, queueOptionId: params.queueOptionId, ...body }),
    }),
    route({
      method: 'DELETE',
      path: '/queue-options/:queueOptionId',
      auth: 'isAuth',
      tag,
      summary: 'Delete a queue option and everything under it (admin)',
      description: 'Admins only.',
      response: queueOptionDeletedSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_QUEUE_OPTION_NOT_FOUND'] },
      ],
      params: byOption,
      handler: async ({ actor, params }) => {
        await app.queues.deleteQueueOption.execute({ actor, queueOptionId: params.queueOptionId });
        return { message: 'Option deleted' as const };
      },
    }),
    route({
      method: 'GET',
      path: '/chatbot',
      auth: 'isAuth',
      tag,
      summary: 'Page through chatbots (top-level, or under `chatbotId`), found by name',
      description: 'Any operator of the company. Optionally of one queue (`queueId`); `searchParam` matches the name, ignoring case and accents.',
      response: chatbotPageSchema,
      query: pagedQuery.extend({
        queueId: id.optional().meta({ description: "Only this queue's chatbots", example: 1 }),
        chatbotId: id.optional().meta({ description: 'The chatbots right under this one; absent: the top-level chatbots of the queue menus', example: 20 }),
      }),
      handler: async ({ actor, query }) => app.queues.listChatbots.execute({ actor, ...query }),
    }),
    route({
      method: 'POST',
      path: '/chatbot',
      auth: 'isAuth',
      tag,
      summary: "Create a chatbot in `queueId`'s menu or under `chatbotId` (admin)",
      status: 201,
      description: 'Admins only. Stored and routed as a queue option: same rules for keys, depth and actions.',
      response: chatbotSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_CHATBOT_NOT_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_OPTION_ALREADY_EXISTS'] },
        {
          status: 422,
          codes: [
            'ERR_QUEUE_REQUIRED',
            'ERR_QUEUE_OPTION_QUEUE_MISMATCH',
            'ERR_QUEUE_OPTION_TOO_DEEP',
            'ERR_INVALID_QUEUE_OPTION_TITLE',
            'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG',
            'ERR_INVALID_QUEUE_OPTION_KEY',
            'ERR_QUEUE_OPTION_ONE_ACTION',
          ],
        },
      ],
      body: chatbotBody.meta({ example: CHATBOT_BODY_EXAMPLE }),
      handler: async ({ actor, body }) => app.queues.createChatbot.execute({ actor, ...body, name: body.name ?? '' }),
    }),
    route({
      method: 'GET',
      path: '/chatbot/:chatbotId',
      auth: 'isAuth',
      tag,
      summary: 'Show a chatbot with every chatbot under it',
      params: byChatbot,
      description: 'Any operator of the company. `options` nests the whole subtree, in menu order.',
      response: chatbotTreeSchema,
      errors: [{ status: 404, codes: ['ERR_CHATBOT_NOT_FOUND'] }],
      handler: async ({ actor, params }) => app.queues.showChatbot.execute({ actor, chatbotId: params.chatbotId }),
    }),
    route({
      method: 'PUT',
      path: '/chatbot/:chatbotId',
      auth: 'isAuth',
      tag,
      summary: 'Edit or move a chatbot (admin)',
      params: byChatbot,
      body: chatbotBody.meta({ example: { name: 'Sales bot', greetingMessage: 'Hi! What are you looking for?', options: [CHATBOT_STEP_EXAMPLE] } }),
      description: 'Admins only: changes the fields given; a move stays within the queue, never under the chatbot itself.',
      response: chatbotSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_CHATBOT_NOT_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_OPTION_ALREADY_EXISTS'] },
        {
          status: 422,
          codes: [
            'ERR_QUEUE_OPTION_QUEUE_MISMATCH',
            'ERR_QUEUE_OPTION_CYCLE',
            'ERR_QUEUE_OPTION_TOO_DEEP',
            'ERR_INVALID_QUEUE_OPTION_TITLE',
            'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG',
            'ERR_INVALID_QUEUE_OPTION_KEY',
            'ERR_QUEUE_OPTION_ONE_ACTION',
          ],
        },
      ],
      handler: async ({ actor, params, body }) => app.queues.updateChatbot.execute({ actor, id: params.chatbotId, ...body }),
    }),
    route({
      method: 'DELETE',
      path: '/chatbot/:chatbotId',
      auth: 'isAuth',
      tag,
      summary: 'Delete a chatbot and every chatbot under it (admin)',
      params: byChatbot,
      description: 'Admins only.',
      response: chatbotDeletedSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_CHATBOT_NOT_FOUND'] },
      ],
      handler: async ({ actor, params }) => {
        await app.queues.deleteChatbot.execute({ actor, chatbotId: params.chatbotId });
        return { message: 'Chatbot deleted' as const };
      },
    }),
  ];
}
