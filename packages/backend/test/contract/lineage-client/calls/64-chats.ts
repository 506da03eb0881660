import { expect } from 'chai';
import type { CallerApi, ClientCalls, Params } from '../client-call.js';

/**
 * The internal chat: pages/Chat (its list, messages, the new/edit dialog ChatModal and the delete
 * button), pages/Chat/ChatList and ChatMessages (the read mark when a chat with unreads is opened),
 * ChatPopover and layout/MainListItems (the unread badge, `GET /chats/` with `searchParam`).
 * pages/Chat listens to `company-<id>-chat-user-<its user id>` (`create`/`update` with `record`),
 * `company-<id>-chat` (`delete` with `id`) and `company-<id>-chat-<open chat id>` (`new-message` with
 * `newMessage` and `chat`, `update` with `chat`); ChatPopover and MainListItems to `company-<id>-chat`
 * (`new-message`, `update`). The lineage forks' ChatMessages sends files in `medias`.
 * The caller is the company admin (Carla); Ana is the other member.
 */

/** What ChatList and the badge read of every chat. */
const CHAT_ROW = [
  'records[].id',
  'records[].uuid',
  'records[].title',
  'records[].ownerId',
  'records[].lastMessage',
  'records[].updatedAt',
  'records[].users[].userId',
  'records[].users[].unreads',
  'records[].users[].user.id',
  'records[].users[].user.name',
];
/** What pages/Chat keeps of a chat it opens (ChatModal's edit form maps `users[].user`). */
const CHAT = ['id', 'uuid', 'title', 'ownerId', 'users[].userId', 'users[].unreads', 'users[].user.id', 'users[].user.name'];
const RECORD = CHAT.map((f) => `record.${f}`);
/** What ChatMessages reads of a message. */
const MESSAGE = ['senderId', 'sender.name', 'message', 'createdAt'];

async function chatWith(api: CallerApi, p: Params, title: string): Promise<number> {
  const res = await api.post('/chats', { title, users: [{ id: p.userId, name: 'Ana' }] });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.id as number;
}

const PNG = Uint8Array.from(Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'));

export default {
  area: 'internal chat',
  async prepare(p, api) {
    const chatId = await chatWith(api.admin, p, 'Plantão de sábado');
    const said = await api.user.post(`/chats/${chatId}/messages`, { message: 'Cheguei, Carla!' });
    expect(said.status, JSON.stringify(said.body)).to.equal(200);
    return { chatId };
  },
  calls: [
    {
      page: 'pages/Chat (the chat list)',
      method: 'GET',
      path: '/chats',
      reads: [...CHAT_ROW, 'hasMore'],
      note: "the chats the caller is a member of; `users[].unreads` of the caller's own entry is the badge",
    },
    {
      page: 'pages/Chat/ChatPopover, layout/MainListItems (the unread badge)',
      method: 'GET',
      path: '/chats/',
      query: { searchParam: '', pageNumber: 1 },
      reads: [
        'records[].id',
        'records[].uuid',
        'records[].lastMessage',
        'records[].updatedAt',
        'records[].users[].userId',
        'records[].users[].unreads',
        'hasMore',
      ],
    },
    {
      page: 'pages/Chat (ChatModal: new chat)',
      method: 'POST',
      path: '/chats',
      body: (p: Params) => ({ users: [{ id: p.userId, name: 'Ana' }], title: 'Reunião de equipe' }),
      reads: CHAT,
      emits: [{ event: 'chat-user-:adminId', action: 'create', reads: RECORD }],
      note: 'the answer is opened at `/chats/<uuid>`; each member (the caller included) gets `chat-user-<id>` `create`',
    },
    {
      page: 'pages/Chat (ChatModal: edit the open chat)',
      method: 'PUT',
      path: '/chats/:chatId',
      body: (p: Params) => ({
        users: [
          { id: p.adminId, name: 'Carla Admin' },
          { id: p.userId, name: 'Ana' },
        ],
        title: 'Plantão de domingo',
      }),
      reads: ['id', 'title'],
      emits: [{ event: 'chat-user-:adminId', action: 'update', reads: RECORD }],
      note: 'the edit button shows for the owner only (`chat.ownerId === user.id`); `users` holds the members the dialog shows, the owner included',
    },
    {
      page: 'pages/Chat (findMessages: the open chat, then older pages on scroll)',
      method: 'GET',
      path: '/chats/:chatId/messages',
      query: { pageNumber: 1 },
      reads: [...MESSAGE.map((f) => `records[].${f}`), 'hasMore'],
    },
    {
      page: 'pages/Chat (sendMessage)',
      method: 'POST',
      path: '/chats/:chatId/messages',
      body: { message: 'Tudo certo por aí?' },
      reads: ['id', 'chatId', ...MESSAGE],
      emits: [
        {
          event: 'chat-:chatId',
          action: 'new-message',
          reads: [...MESSAGE.map((f) => `newMessage.${f}`), 'newMessage.chatId', 'chat.id', 'chat.users[].unreads'],
        },
        { event: 'chat', action: 'new-message', reads: ['newMessage.senderId', 'chat.id', 'chat.lastMessage', 'chat.users[].userId', 'chat.users[].unreads'] },
      ],
      note: 'the page ignores the answer and appends the `new-message` it is sent',
    },
    {
      page: 'pages/Chat/ChatMessages (forks with attachments: files in `medias`)',
      method: 'POST',
      path: '/chats/:chatId/messages',
      form: {
        fields: { fromMe: 'true', typeArch: 'chat', body: 'foto.png' },
        files: [{ field: 'medias', name: 'foto.png', type: 'image/png', content: PNG }],
      },
      reads: ['id', 'mediaPath', 'mediaType', 'mediaName', 'message'],
      emits: [{ event: 'chat-:chatId', action: 'new-message', reads: ['newMessage.mediaPath', 'newMessage.mediaType', 'newMessage.sender.name'] }],
      note: 'one message per file (its name as the text); `typeArch`, `fileId`, `body` and `fromMe` are ignored',
    },
    {
      page: 'pages/Chat/ChatList, ChatMessages (opening a chat with unreads)',
      method: 'POST',
      path: '/chats/:chatId/read',
      setup: async (p, api) => {
        const res = await api.user.post(`/chats/${p.chatId}/messages`, { message: 'Viu a escala?' });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        return {};
      },
      body: (p: Params) => ({ userId: p.adminId }),
      reads: ['id', 'users[].userId', 'users[].unreads'],
      emits: [
        { event: 'chat-:chatId', action: 'update', reads: ['chat.id', 'chat.users[].unreads'] },
        { event: 'chat', action: 'update', reads: ['chat.id', 'chat.users[].userId', 'chat.users[].unreads'] },
      ],
      note: "the client sends its own `userId`; the mark is always the token's user's, and only that user is sent the `update`",
    },
    {
      page: 'pages/Chat/ChatList (delete, owner only)',
      method: 'DELETE',
      path: '/chats/:doomedChatId',
      setup: async (p, api) => ({ doomedChatId: await chatWith(api.admin, p, 'Descartável') }),
      reads: ['message'],
      emits: [{ event: 'chat', action: 'delete', reads: ['id'] }],
    },
  ],
} satisfies ClientCalls;
