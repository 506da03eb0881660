import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { nullableId } from './queue-routes.js';
import {
  chatbotDeletedSchema, chatbotPageSchema, chatbotSchema, chatbotTreeSchema, queueOptionDeletedSchema, queueOptionListSchema, queueOptionSchema,
} from './queue-schemas.js';

/** An option key as typed in forms: a number or a short text. */
const optionKey = z.union([z.string().max(50), z.number().int().min(0).max(999_999_999)]).transform(String);
const text = z.string().max(10_000).nullable();
/** `parentId` of a list: an id, or `null`/`-1`/`0` for the queue's first menu. */
const parentFilter = z.union([z.enum(['null', '-1', '0']).transform(() => null), id]);

const optionBody = z.object({
  queueId: id,
  parentId: nullableId,
  title: z.string().max(500),
  message: text,
  option: optionKey,
  forwardQueueId: nullableId,
  forwardUserId: nullableId,
  closeTicket: z.boolean(),
}).partial();

const chatbotBody = z.object({
  queueId: id,
  chatbotId: nullableId,
  name: z.string().max(500),
  greetingMessage: text,
  option: optionKey,
  forwardQueueId: nullableId,
  forwardUserId: nullableId,
  closeTicket: z.boolean(),
}).partial();

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
      method: 'GET', path: '/queue-options', auth: 'isAuth', tag,
      summary: 'Queue options, of a queue (`queueId`) and one level (`parentId`, `null` or -1 for the first menu), in menu order',
      description: 'Any operator of the company. Without filters, every option of the company, by queue, level and menu order (numeric keys first).',
      response: queueOptionListSchema,
      query: z.object({ queueId: id.optional(), parentId: parentFilter.optional() }),
      handler: async ({ actor, query }) => app.queues.listQueueOptions.execute({ actor, queueId: query.queueId, parentId: query.parentId }),
    }),
    route({
      method: 'POST', path: '/queue-options', auth: 'isAuth', tag, summary: 'Add a menu option under `parentId` or to `queueId`\'s first menu (admin)', status: 201,
      description: 'Admins only. The option takes its parent\'s queue; without `option` it takes the next free number among its siblings. At most one action (forward to a queue, to a user, or close).',
      response: queueOptionSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_QUEUE_OPTION_NOT_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_OPTION_ALREADY_EXISTS'] },
        { status: 422, codes: ['ERR_QUEUE_REQUIRED', 'ERR_QUEUE_OPTION_QUEUE_MISMATCH', 'ERR_QUEUE_OPTION_TOO_DEEP', 'ERR_INVALID_QUEUE_OPTION_TITLE', 'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG', 'ERR_INVALID_QUEUE_OPTION_KEY', 'ERR_QUEUE_OPTION_ONE_ACTION'] },
      ],
      body: optionBody.required({ title: true }),
      handler: async ({ actor, body }) => app.queues.createQueueOption.execute({ actor, ...body }),
    }),
    route({
      method: 'GET', path: '/queue-options/:queueOptionId', auth: 'isAuth', tag, summary: 'Show a queue option', params: byOption,
      description: 'Any operator of the company.',
      response: queueOptionSchema,
      errors: [{ status: 404, codes: ['ERR_QUEUE_OPTION_NOT_FOUND'] }],
      handler: async ({ actor, params }) => app.queues.showQueueOption.execute({ actor, queueOptionId: params.queueOptionId }),
    }),
    route({
      method: 'PUT', path: '/queue-options/:queueOptionId', auth: 'isAuth', tag, summary: 'Edit or move a queue option (admin)', params: byOption,
      description: 'Admins only: changes the fields given; a move stays within the queue, never under the option itself.',
      response: queueOptionSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_QUEUE_OPTION_NOT_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_OPTION_ALREADY_EXISTS'] },
        { status: 422, codes: ['ERR_QUEUE_OPTION_QUEUE_MISMATCH', 'ERR_QUEUE_OPTION_CYCLE', 'ERR_QUEUE_OPTION_TOO_DEEP', 'ERR_INVALID_QUEUE_OPTION_TITLE', 'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG', 'ERR_INVALID_QUEUE_OPTION_KEY', 'ERR_QUEUE_OPTION_ONE_ACTION'] },
      ],
      body: optionBody,
      handler: async ({ actor, params, body }) => app.queues.updateQueueOption.execute({ actor, queueOptionId: params.queueOptionId, ...body }),
    }),
    route({
      method: 'DELETE', path: '/queue-options/:queueOptionId', auth: 'isAuth', tag, summary: 'Delete a queue option and everything under it (admin)',
      description: 'Admins only.',
      response: queueOptionDeletedSchema,
      errors: [{ status: 403, codes: ['ERR_NO_PERMISSION'] }, { status: 404, codes: ['ERR_QUEUE_OPTION_NOT_FOUND'] }],
      params: byOption,
      handler: async ({ actor, params }) => {
        await app.queues.deleteQueueOption.execute({ actor, queueOptionId: params.queueOptionId });
        return { message: 'Option deleted' as const };
      },
    }),
    route({
      method: 'GET', path: '/chatbot', auth: 'isAuth', tag, summary: 'Page through chatbots (top-level, or under `chatbotId`), found by name',
      description: 'Any operator of the company. Optionally of one queue (`queueId`); `searchParam` matches the name, ignoring case and accents.',
      response: chatbotPageSchema,
      query: pagedQuery.extend({ queueId: id.optional(), chatbotId: id.optional() }),
      handler: async ({ actor, query }) => app.queues.listChatbots.execute({ actor, ...query }),
    }),
    route({
      method: 'POST', path: '/chatbot', auth: 'isAuth', tag, summary: 'Create a chatbot in `queueId`\'s menu or under `chatbotId` (admin)', status: 201,
      description: 'Admins only. Stored and routed as a queue option: same rules for keys, depth and actions.',
      response: chatbotSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_CHATBOT_NOT_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_OPTION_ALREADY_EXISTS'] },
        { status: 422, codes: ['ERR_QUEUE_REQUIRED', 'ERR_QUEUE_OPTION_QUEUE_MISMATCH', 'ERR_QUEUE_OPTION_TOO_DEEP', 'ERR_INVALID_QUEUE_OPTION_TITLE', 'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG', 'ERR_INVALID_QUEUE_OPTION_KEY', 'ERR_QUEUE_OPTION_ONE_ACTION'] },
      ],
      body: chatbotBody.required({ name: true }),
      handler: async ({ actor, body }) => app.queues.createChatbot.execute({ actor, ...body }),
    }),
    route({
      method: 'GET', path: '/chatbot/:chatbotId', auth: 'isAuth', tag, summary: 'Show a chatbot with every chatbot under it', params: byChatbot,
      description: 'Any operator of the company. `options` nests the whole subtree, in menu order.',
      response: chatbotTreeSchema,
      errors: [{ status: 404, codes: ['ERR_CHATBOT_NOT_FOUND'] }],
      handler: async ({ actor, params }) => app.queues.showChatbot.execute({ actor, chatbotId: params.chatbotId }),
    }),
    route({
      method: 'PUT', path: '/chatbot/:chatbotId', auth: 'isAuth', tag, summary: 'Edit or move a chatbot (admin)', params: byChatbot, body: chatbotBody,
      description: 'Admins only: changes the fields given; a move stays within the queue, never under the chatbot itself.',
      response: chatbotSchema,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 404, codes: ['ERR_CHATBOT_NOT_FOUND', 'ERR_QUEUE_NOT_FOUND', 'ERR_NO_USER_FOUND'] },
        { status: 409, codes: ['ERR_QUEUE_OPTION_ALREADY_EXISTS'] },
        { status: 422, codes: ['ERR_QUEUE_OPTION_QUEUE_MISMATCH', 'ERR_QUEUE_OPTION_CYCLE', 'ERR_QUEUE_OPTION_TOO_DEEP', 'ERR_INVALID_QUEUE_OPTION_TITLE', 'ERR_QUEUE_OPTION_MESSAGE_TOO_LONG', 'ERR_INVALID_QUEUE_OPTION_KEY', 'ERR_QUEUE_OPTION_ONE_ACTION'] },
      ],
      handler: async ({ actor, params, body }) => app.queues.updateChatbot.execute({ actor, id: params.chatbotId, ...body }),
    }),
    route({
      method: 'DELETE', path: '/chatbot/:chatbotId', auth: 'isAuth', tag, summary: 'Delete a chatbot and every chatbot under it (admin)', params: byChatbot,
      description: 'Admins only.',
      response: chatbotDeletedSchema,
      errors: [{ status: 403, codes: ['ERR_NO_PERMISSION'] }, { status: 404, codes: ['ERR_CHATBOT_NOT_FOUND'] }],
      handler: async ({ actor, params }) => {
        await app.queues.deleteChatbot.execute({ actor, chatbotId: params.chatbotId });
        return { message: 'Chatbot deleted' as const };
      },
    }),
  ];
}


