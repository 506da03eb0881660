import { eventually } from '../../../support/sandbox-conversations.js';
import type { CallerApis, ClientCalls, Params } from '../client-call.js';

/**
 * A conversation: MessagesList (the page, its live `appMessage` events), MessageInput (text, quoted
 * reply, private note, files and recorded audio, edit), MessageOptionsMenu (delete) and
 * ForwardMessageModal (forward).
 */

/** What MessagesList reads of every message it draws. */
const MESSAGE = [
  'id',
  'body',
  'fromMe',
  'ack',
  'read',
  'mediaUrl',
  'mediaType',
  'createdAt',
  'isDeleted',
  'isEdited',
  'isPrivate',
  'ticketId',
  'quotedMsg',
  'contact.name',
];
const of = (prefix: string) => MESSAGE.map((f) => `${prefix}.${f}`);

/** What the list, the notification bell and the conversation read of an `appMessage` create. */
const CREATED = [
  ...of('message'),
  'message.ticket.uuid',
  'ticket.id',
  'ticket.uuid',
  'ticket.status',
  'ticket.userId',
  'ticket.queueId',
  'ticket.isGroup',
  'ticket.contact.name',
  'ticket.unreadMessages',
  'contact.name',
  'contact.urlPicture',
];

/** The composer's JSON body (MessageInput): the client sends its whole state, `isPrivate` as text. */
const composer = (body: string, extra: Record<string, unknown> = {}) => ({
  read: 1,
  fromMe: true,
  mediaUrl: '',
  body,
  quotedMsg: null,
  isPrivate: 'false',
  ...extra,
});

/** A PNG's first bytes: enough for the stored file to be an image. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

/** Ana replies in the fixture's conversation and waits until the sandbox took the send. */
async function sentReply(p: Params, api: CallerApis, body: string): Promise<Params> {
  const res = await api.user.post(`/messages/${p.ticketId}`, { body });
  if (res.status >= 300) throw new Error(`send: ${res.status} ${JSON.stringify(res.body)}`);
  const id = res.body.messages[0].id as string;
  await eventually('the send to be acknowledged', async () => {
    const page = await api.user.get(`/messages/${p.ticketId}`);
    return (page.body.messages as Array<{ id: string; ack: number }>).some((m) => m.id === id && m.ack >= 1);
  });
  return { target: id };
}

export default {
  area: 'messages',
  calls: [
    {
      page: 'components/MessagesList',
      method: 'GET',
      path: '/messages/:ticketUuid',
      as: 'user',
      setup: async (p, api) => {
        await api.inbound(String(p.contactNumber), 'Ainda está aí?');
        return {};
      },
      query: { pageNumber: 1, selectedQueues: '[]' },
      reads: ['messages', 'hasMore', ...of('messages[]'), 'ticket.id'],
      emits: [{ event: 'ticket', action: 'updateUnread', reads: ['ticketId'] }],
      note: 'The conversation page names the ticket by the uuid in its address; opening it reads it (`updateUnread` clears the bell).',
    },
    {
      page: 'components/MessageInput (text)',
      method: 'POST',
      path: '/messages/:ticketId',
      as: 'user',
      body: composer('*Ana:*\nVou verificar para você.'),
      emits: [
        { event: 'appMessage', action: 'create', reads: CREATED },
        { event: 'ticket', action: 'update', reads: ['ticket.id', 'ticket.status', 'ticket.lastMessage'] },
      ],
    },
    {
      page: 'components/MessageInput (quoted reply)',
      method: 'POST',
      path: '/messages/:ticketId',
      as: 'user',
      body: (p: Params) =>
        composer('Sobre isso:', {
          quotedMsg: { id: p.messageId, body: 'Oi, preciso de ajuda', fromMe: false, ack: 2, mediaType: 'conversation', ticketId: p.ticketId },
        }),
      emits: [
        {
          event: 'appMessage',
          action: 'create',
          reads: [...CREATED, 'message.quotedMsg.body', 'message.quotedMsg.fromMe', 'message.quotedMsg.mediaType', 'message.quotedMsg.contact.name'],
        },
      ],
      note: 'The client sends the quoted message object it shows (`quotedMsg`); its `id` names it.',
    },
    {
      page: 'components/MessageInput (private note)',
      method: 'POST',
      path: '/messages/:ticketId',
      as: 'user',
      body: composer('*Ana - Mensagem Privada:*\nCliente VIP', { isPrivate: 'true' }),
      emits: [{ event: 'appMessage', action: 'create', reads: [...CREATED] }],
    },
    {
      page: 'components/MessageInput (files, MessageUploadMedias)',
      method: 'POST',
      path: '/messages/:ticketId',
      as: 'user',
      form: {
        fields: { fromMe: 'true', isPrivate: 'false', body: 'A foto do produto' },
        files: [{ field: 'medias', name: 'produto.png', type: 'image/png', content: PNG }],
      },
      emits: [{ event: 'appMessage', action: 'create', reads: [...CREATED, 'message.mediaUrl'] }],
    },
    {
      page: 'components/MessageInput (recorded audio)',
      method: 'POST',
      path: '/messages/:ticketId',
      as: 'user',
      form: {
        fields: { body: '1700000000000.mp3', fromMe: 'true' },
        files: [{ field: 'medias', name: '1700000000000.mp3', type: 'audio/mpeg', content: 'ID3 fake mp3 bytes' }],
      },
      emits: [{ event: 'appMessage', action: 'create', reads: [...CREATED, 'message.mediaUrl'] }],
    },
    {
      page: 'components/MessageInput (edit)',
      method: 'POST',
      path: '/messages/edit/:target',
      as: 'user',
      setup: (p, api) => sentReply(p, api, 'Mensagem com erro de digitação'),
      body: composer('Mensagem corrigida'),
      reads: ['id', 'body', 'isEdited'],
      emits: [{ event: 'appMessage', action: 'update', reads: [...of('message'), 'message.ticket.uuid'] }],
    },
    {
      page: 'components/MessageOptionsMenu (delete)',
      method: 'DELETE',
      path: '/messages/:target',
      as: 'user',
      setup: (p, api) => sentReply(p, api, 'Mensagem enviada por engano'),
      reads: ['id', 'isDeleted'],
      emits: [{ event: 'appMessage', action: 'update', reads: ['message.id', 'message.isDeleted', 'message.ticket.uuid'] }],
    },
    {
      page: 'components/ForwardMessageModal',
      method: 'POST',
      path: '/message/forward',
      as: 'admin',
      setup: async (_p, api) => {
        const c = await api.admin.post('/contacts', { name: 'Fabio Encaminhado', number: '5511955552222' });
        if (c.status >= 300) throw new Error(`contact: ${c.status} ${JSON.stringify(c.body)}`);
        return { target: c.body.id };
      },
      body: (p: Params) => ({ messageId: p.messageId, contactId: p.target, signMessage: true }),
      emits: [{ event: 'appMessage', action: 'create', reads: CREATED }],
    },
  ],
} satisfies ClientCalls;
