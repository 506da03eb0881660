import type { Application } from '@servicedesk/core';
import { MAX_CHAT_FILES, MAX_CHAT_MEDIA_BYTES, MAX_CHAT_MEMBERS } from '@servicedesk/core/chats/chat';
import { z } from 'zod';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import { CONTACT_LISTS_TAG } from '../contact-lists/contact-list-routes.js';
import { route, type RouteError } from '../http/route.js';
import { id, idParam, pagedQuery } from '../http/schemas.js';
import { chatMessagePageSchema, chatMessageSchema, chatPageSchema, chatSchema } from './chat-schemas.js';

type ChatsApp = Pick<Application, 'chats'>;

const PLAN: RouteError = { status: 403, codes: ['ERR_PLAN_FEATURE_DISABLED'], description: "The company's plan has no internal chat" };
const OWNER: RouteError = {
  status: 403,
  codes: ['ERR_NO_PERMISSION', 'ERR_PLAN_FEATURE_DISABLED'],
  description: 'The caller is a member but not the owner, or the plan has no internal chat',
};
const NOT_FOUND: RouteError = { status: 404, codes: ['ERR_NO_CHAT_FOUND'], description: 'No such chat in the company, or the caller is not a member' };
const ACCESS = 'Any user of a company whose plan has internal chat; a chat is visible to its members only (404 to anyone else).';

/** The users the chat dialog sends: `[{ id, name }]` (only `id` is read), users of the caller's company. */
const members = z
  .array(
    z.object({ id: id.meta({ description: "The user's id", example: 7 }) }).meta({ description: 'A user of the company; `name` and other fields are ignored' }),
  )
  .max(MAX_CHAT_MEMBERS);
const membersField = (absent: string) =>
  members.optional().meta({
    description: `The other members, users of the caller's company (the owner is always a member, ${MAX_CHAT_MEMBERS} members in all at most); ${absent}`,
  });
const title = z.string().max(1000);
const TITLE = "The chat's name, trimmed, 1 to 255 characters";

/**
 * Internal chats (`/chats`): conversations between a company's operators. Events go to members
 * only: `company-<id>-chat-user-<userId>` (a chat created or edited), `company-<id>-chat` and
 * `company-<id>-chat-<chatId>` (new messages, read marks, deletion).
 */
export function chatRoutes(app: ChatsApp) {
  const tag = CONTACT_LISTS_TAG;
  const feature = 'internalChat' as const;
  const chats = app.chats;
  const byId = idParam('id');
  return [
    route({
      method: 'GET',
      path: '/chats',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'listChats',
      summary: "Page through the caller's internal chats",
      description: `${ACCESS} A page (20) as \`{records, count, hasMore}\` of the chats the caller is a member of, latest activity first; \`searchParam\` in the title, ignoring case and accents. Each chat carries its owner and every member with their unread count.`,
      query: pagedQuery,
      response: chatPageSchema,
      errors: [PLAN],
      handler: async ({ actor, query }) => chats.listChats.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/chats/:id',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'showChat',
      summary: "One of the caller's chats, by id or uuid",
      description: `${ACCESS} \`:id\` is the chat's id or its \`uuid\` (the client's address, \`/chats/<uuid>\`).`,
      params: z.object({ id: z.union([id, z.uuid()]).meta({ description: "The chat's id, or its uuid" }) }),
      response: chatSchema,
      errors: [PLAN, NOT_FOUND],
      handler: async ({ actor, params }) => chats.showChat.execute({ actor, chat: params.id }),
    }),
    route({
      method: 'GET',
      path: '/chats/:id/messages',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'listChatMessages',
      summary: "Page through a chat's messages, newest page first",
      description: `${ACCESS} Page 1 holds the 20 newest messages, each page in the order they were sent (the client prepends older pages as \`pageNumber\` grows). Reading does not mark the chat read: \`POST /chats/:id/read\` does.`,
      params: byId,
      query: z.object({ pageNumber: pagedQuery.shape.pageNumber }),
      response: chatMessagePageSchema,
      errors: [PLAN, NOT_FOUND],
      handler: async ({ actor, params, query }) => chats.listChatMessages.execute({ actor, chatId: params.id, pageNumber: query.pageNumber }),
    }),
    route({
      method: 'POST',
      path: '/chats/:id/messages',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'sendChatMessage',
      summary: 'Write in a chat: a text, files (`medias`), or both',
      description:
        `${ACCESS} JSON \`{message}\`, or multipart with the files in \`medias\` (up to ${MAX_CHAT_FILES}, each up to 16 MB) and an optional \`message\` ` +
        '(the other fields the client sends, `typeArch`, `fileId`, `body`, `fromMe`, are ignored). Each file is a message of its own: the first ' +
        "carries the text as its caption, the others (and one sent without text) their file's name. The sender has then read the chat; every other " +
        'member has one more unread per message. Members get `chat-<chatId>` and `chat` (`new-message`) per message. Answers the last message, 200.',
      params: byId,
      body: z
        .object({
          message: z.string().max(100_000).optional().meta({
            description:
              "The text, trimmed, up to 10,000 characters; with files, the first file's caption; absent or blank: files only (one of the two is needed)",
            example: 'Can someone cover the 14:00 queue?',
          }),
        })
        .meta({ example: { message: 'Can someone cover the 14:00 queue?' } }),
      jsonOrMultipart: true,
      multipart: { fileFields: ['medias'], maxFileBytes: MAX_CHAT_MEDIA_BYTES, maxFiles: MAX_CHAT_FILES },
      response: chatMessageSchema,
      errors: [
        PLAN,
        NOT_FOUND,
        { status: 413, codes: ['ERR_FILE_TOO_LARGE', 'ERR_TOO_MANY_FILES'] },
        { status: 422, codes: ['ERR_CHAT_MESSAGE_EMPTY', 'ERR_CHAT_MESSAGE_TOO_LONG', 'ERR_EMPTY_FILE'] },
      ],
      handler: async ({ actor, params, body, multipart }) =>
        chats.sendChatMessage.execute({
          actor,
          chatId: params.id,
          ...(body.message !== undefined ? { message: body.message } : {}),
          files: multipart.files.medias ?? [],
        }),
    }),
    route({
      method: 'POST',
      path: '/chats/:id/read',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'markChatRead',
      summary: 'The caller has read the chat',
      description:
        `${ACCESS} Marks the chat read up to its latest message for the caller only (the user of the token: a \`userId\` in the body is ` +
        "ignored); no other member's count changes. Every member's sockets get `chat-<chatId>` and `chat` (`update`), so the writers see who read them. " +
        'Answers the chat.',
      params: byId,
      body: z.object({ userId: z.unknown().optional().meta({ description: 'Sent by the lineage client; ignored' }) }).meta({ example: {} }),
      response: chatSchema,
      errors: [PLAN, NOT_FOUND],
      handler: async ({ actor, params }) => chats.markChatRead.execute({ actor, chatId: params.id }),
    }),
    route({
      method: 'POST',
      path: '/chats',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'createChat',
      summary: "Create a chat with some of the company's users",
      description:
        `${ACCESS} The caller owns the chat and is always a member; \`users\` names the others (users of the company: another company's is 404). ` +
        'Answers 200 with the chat, as the lineage does; each member gets `chat-user-<their id>` (`create`).',
      body: z
        .object({ title: title.meta({ description: TITLE, example: 'Support team' }), users: membersField('absent: the owner alone') })
        .meta({ example: { title: 'Support team', users: [{ id: 7 }, { id: 9 }] } }),
      response: chatSchema,
      errors: [PLAN, { status: 404, codes: ['ERR_NO_USER_FOUND'] }, { status: 422, codes: ['ERR_CHAT_INVALID_TITLE', 'ERR_TOO_MANY_CHAT_MEMBERS'] }],
      handler: async ({ actor, body }) => chats.createChat.execute({ actor, title: body.title, userIds: (body.users ?? []).map((u) => u.id) }),
    }),
    route({
      method: 'PUT',
      path: '/chats/:id',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'updateChat',
      summary: 'Rename a chat and/or replace its members (owner)',
      description:
        `${ACCESS} Only the owner (403 for the other members). \`users\`, when sent, replaces the members (the owner always stays): ` +
        'those who stay get `chat-user-<id>` `update`, those who join `create`, those removed `chat` `delete`.',
      params: byId,
      body: z
        .object({
          title: title.optional().meta({ description: `${TITLE}; absent: unchanged`, example: 'Support team' }),
          users: membersField('replacing the current ones; absent: unchanged'),
        })
        .meta({ example: { title: 'Support and billing', users: [{ id: 7 }, { id: 9 }, { id: 12 }] } }),
      response: chatSchema,
      errors: [
        OWNER,
        NOT_FOUND,
        { status: 404, codes: ['ERR_NO_USER_FOUND'] },
        { status: 422, codes: ['ERR_CHAT_INVALID_TITLE', 'ERR_TOO_MANY_CHAT_MEMBERS'] },
      ],
      handler: async ({ actor, params, body }) =>
        chats.updateChat.execute({
          actor,
          chatId: params.id,
          ...(body.title !== undefined ? { title: body.title } : {}),
          ...(body.users ? { userIds: body.users.map((u) => u.id) } : {}),
        }),
    }),
    route({
      method: 'DELETE',
      path: '/chats/:id',
      auth: 'isAuth',
      tag,
      feature,
      operationId: 'deleteChat',
      summary: 'Delete a chat with its messages and files (owner)',
      description: `${ACCESS} Only the owner (403 for the other members). Its members get \`chat\` \`delete\` with the \`id\`.`,
      params: byId,
      response: deletedSchema,
      errors: [OWNER, NOT_FOUND],
      handler: async ({ actor, params }) => {
        await chats.deleteChat.execute({ actor, chatId: params.id });
        return { message: 'Chat deleted' };
      },
    }),
  ];
}
