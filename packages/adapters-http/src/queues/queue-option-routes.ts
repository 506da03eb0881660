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
const parentFilter = z.union([z.enum(['null', '-1', '0']).transform(() => null), id]);

const optionBody = z
  .object({
    queueId: id,
    parentId: nullableId,
    title: z.string().max(500),
    message: text,
    option: optionKey,
    forwardQueueId: nullableId,
    forwardUserId: nullableId,
    closeTicket: z.boolean(),
  })
  .partial();

/** What a lineage chatbot step does when picked; `''` (a step not yet typed) means "not said". */
const queueType = z.enum(['text', 'queue', 'attendent', 'integration', 'file', '']).transform((v) => (v === '' ? undefined : v));

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
    id: id.optional(),
    name: z.string().max(500),
    greetingMessage: text.optional(),
    queueType: queueType.optional(),
    optQueueId: nullableId.optional(),
    optUserId: nullableId.optional(),
    closeTicket: z.boolean().optional(),
    get options() {
      return z.array(chatbotStepSchema).max(100).optional();
    },
  })
  .meta({ id: 'ChatbotStep', description: "A chatbot step as the lineage's editors send it, with the steps under it" });

const chatbotBody = z
  .object({
    queueId: id,
    chatbotId: nullableId,
    name: z.string().max(500),
    greetingMessage: text,
    option: optionKey,
    forwardQueueId: nullableId,
    forwardUserId: nullableId,
    closeTicket: z.boolean(),
    /** The lineage's names of the action and its targets: `queueType` decides which of `optQueueId` and `optUserId` counts. */
    queueType,
    optQueueId: nullableId,
    optUserId: nullableId,
    /** The steps under it, as the lineage's chatbot editor sends them. */
    options: z.array(chatbotStepSchema).max(100),
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
      query: z.object({ queueId: id.optional(), parentId: parentFilter.optional() }),
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
      body: optionBody.required({ title: true }),
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
      body: optionBody,
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
      query: pagedQuery.extend({ queueId: id.optional(), chatbotId: id.optional() }),
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
      body: chatbotBody,
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
      body: chatbotBody,
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
