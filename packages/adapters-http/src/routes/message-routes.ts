import { MAX_MESSAGE_LENGTH, MAX_TICKET_MEDIA_BYTES, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery } from '../http/schemas.js';

const messageId = z.string().min(1).max(64);
const page = z.object({ pageNumber: pagedQuery.shape.pageNumber });

export interface MessageRoutesOptions {
  /** Starts the outbox relay after a send, edit or revoke is committed (the periodic relay also catches it). */
  readonly pokeOutbox: () => void;
}

/** The operators' conversation: read (resets the unread count), send, note, quote, edit, revoke, forward. */
export function messageRoutes(app: Application, o: MessageRoutesOptions) {
  const tag = 'Tickets and messages';
  const byTicket = idParam('ticketId');
  const thenPoke = async <T>(work: Promise<T>) => {
    const result = await work;
    o.pokeOutbox();
    return result;
  };
  return [
    route({
      method: 'GET', path: '/messages/media', auth: 'isAuth', tag, summary: 'The files of a ticket\'s conversation, newest first',
      query: page.extend({ ticketId: id }),
      handler: async ({ actor, query }) => app.listTicketMedia.execute({ actor, ticketId: query.ticketId, pageNumber: query.pageNumber }),
    }),
    route({
      method: 'GET', path: '/messages/:ticketId', auth: 'isAuth', tag, summary: 'A page of a ticket\'s conversation (oldest first within the page); marks it read',
      params: byTicket, query: page,
      handler: async ({ actor, params, query }) => app.listTicketMessages.execute({ actor, ticketId: params.ticketId, pageNumber: query.pageNumber }),
    }),
    route({
      method: 'POST', path: '/messages/:ticketId', auth: 'isAuth', tag,
      summary: 'Send a text (JSON) or files (multipart, field `medias`), a quoted reply (`quotedMsgId`) or a private note (`isPrivate`)',
      params: byTicket,
      body: z.object({ body: z.string().max(MAX_MESSAGE_LENGTH).default(''), quotedMsgId: messageId.or(z.literal('')).nullable().optional(), isPrivate: formBoolean.optional() }),
      multipart: { fileFields: ['medias'], maxFileBytes: MAX_TICKET_MEDIA_BYTES, maxFiles: 10 }, jsonOrMultipart: true,
      handler: async ({ actor, params, body, multipart }) => thenPoke(app.sendTicketMessage.execute({
        actor, ticketId: params.ticketId, body: body.body, quotedMsgId: body.quotedMsgId || null, isPrivate: body.isPrivate, medias: multipart.files.medias ?? [],
      })),
    }),
    route({
      method: 'DELETE', path: '/messages/:messageId', auth: 'isAuth', tag, summary: 'Delete a sent message for everyone (revoke); it stays flagged for the operators',
      params: z.object({ messageId }),
      handler: async ({ actor, params }) => thenPoke(app.revokeMessage.execute({ actor, messageId: params.messageId })),
    }),
    route({
      method: 'POST', path: '/messages/edit/:messageId', auth: 'isAuth', tag, summary: 'Change the text of a sent message or a note',
      params: z.object({ messageId }), body: z.object({ body: z.string().max(MAX_MESSAGE_LENGTH) }),
      handler: async ({ actor, params, body }) => thenPoke(app.editMessage.execute({ actor, messageId: params.messageId, body: body.body })),
    }),
    route({
      method: 'GET', path: '/messages-allMe', auth: 'isAuth', tag, summary: 'The messages the caller sent, newest first', query: page,
      handler: async ({ actor, query }) => app.listMyMessages.execute({ actor, pageNumber: query.pageNumber }),
    }),
    route({
      method: 'POST', path: '/message/forward', auth: 'isAuth', tag, summary: 'Forward a message to another contact on the same connection',
      body: z.object({ messageId, contactId: id }),
      handler: async ({ actor, body }) => thenPoke(app.forwardMessage.execute({ actor, messageId: body.messageId, contactId: body.contactId })),
    }),
    route({
      method: 'POST', path: '/messages/:ticketId/catalog', auth: 'isAuth', tag, summary: 'Send a list of items with prices as one text message',
      params: byTicket,
      body: z.object({
        body: z.string().max(4096).optional(),
        items: z.array(z.object({ name: z.string().min(1).max(120), price: z.number().min(0).max(1e9), description: z.string().max(500).optional() })).min(1).max(10),
      }),
      handler: async ({ actor, params, body }) => thenPoke(app.sendCatalog.execute({ actor, ticketId: params.ticketId, body: body.body, items: body.items })),
    }),
  ];
}
