import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { nullableId } from './queue-routes.js';

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
export function queueOptionRoutes(app: Application) {
  const tag = 'Queues, tags, chatbots, campaigns';
  const byOption = idParam('queueOptionId');
  const byChatbot = idParam('chatbotId');
  return [
    route({
      method: 'GET', path: '/queue-options', auth: 'isAuth', tag,
      summary: 'Queue options, of a queue (`queueId`) and one level (`parentId`, `null` or -1 for the first menu), in menu order',
      query: z.object({ queueId: id.optional(), parentId: parentFilter.optional() }),
      handler: async ({ actor, query }) => app.listQueueOptions.execute({ actor, queueId: query.queueId, parentId: query.parentId }),
    }),
    route({
      method: 'POST', path: '/queue-options', auth: 'isAuth', tag, summary: 'Add a menu option under `parentId` or to `queueId`\'s first menu (admin)', status: 201,
      body: optionBody.required({ title: true }),
      handler: async ({ actor, body }) => app.createQueueOption.execute({ actor, ...body }),
    }),
    route({
      method: 'GET', path: '/queue-options/:queueOptionId', auth: 'isAuth', tag, summary: 'Show a queue option', params: byOption,
      handler: async ({ actor, params }) => app.showQueueOption.execute({ actor, queueOptionId: params.queueOptionId }),
    }),
    route({
      method: 'PUT', path: '/queue-options/:queueOptionId', auth: 'isAuth', tag, summary: 'Edit or move a queue option (admin)', params: byOption,
      body: optionBody,
      handler: async ({ actor, params, body }) => app.updateQueueOption.execute({ actor, queueOptionId: params.queueOptionId, ...body }),
    }),
    route({
      method: 'DELETE', path: '/queue-options/:queueOptionId', auth: 'isAuth', tag, summary: 'Delete a queue option and everything under it (admin)',
      params: byOption,
      handler: async ({ actor, params }) => {
        await app.deleteQueueOption.execute({ actor, queueOptionId: params.queueOptionId });
        return { message: 'Option deleted' };
      },
    }),
    route({
      method: 'GET', path: '/chatbot', auth: 'isAuth', tag, summary: 'Page through chatbots (top-level, or under `chatbotId`), found by name',
      query: pagedQuery.extend({ queueId: id.optional(), chatbotId: id.optional() }),
      handler: async ({ actor, query }) => app.listChatbots.execute({ actor, ...query }),
    }),
    route({
      method: 'POST', path: '/chatbot', auth: 'isAuth', tag, summary: 'Create a chatbot in `queueId`\'s menu or under `chatbotId` (admin)', status: 201,
      body: chatbotBody.required({ name: true }),
      handler: async ({ actor, body }) => app.createChatbot.execute({ actor, ...body }),
    }),
    route({
      method: 'GET', path: '/chatbot/:chatbotId', auth: 'isAuth', tag, summary: 'Show a chatbot with every chatbot under it', params: byChatbot,
      handler: async ({ actor, params }) => app.showChatbot.execute({ actor, chatbotId: params.chatbotId }),
    }),
    route({
      method: 'PUT', path: '/chatbot/:chatbotId', auth: 'isAuth', tag, summary: 'Edit or move a chatbot (admin)', params: byChatbot, body: chatbotBody,
      handler: async ({ actor, params, body }) => app.updateChatbot.execute({ actor, id: params.chatbotId, ...body }),
    }),
    route({
      method: 'DELETE', path: '/chatbot/:chatbotId', auth: 'isAuth', tag, summary: 'Delete a chatbot and every chatbot under it (admin)', params: byChatbot,
      handler: async ({ actor, params }) => {
        await app.deleteChatbot.execute({ actor, chatbotId: params.chatbotId });
        return { message: 'Chatbot deleted' };
      },
    }),
  ];
}


