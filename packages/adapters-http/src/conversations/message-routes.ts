import { MAX_MESSAGE_LENGTH, MAX_TICKET_MEDIA_BYTES, type Application } from '@servicedesk/core';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery } from '../http/schemas.js';
import { idempotencyHeader, idempotencyKey } from './idempotency-header.js';
import {
  forwardedMessageSchema,
  messageCountSchema,
  messagePageSchema,
  messageViewSchema,
  sentMessagesSchema,
  ticketMessagePageSchema,
} from './message-schemas.js';

const ticketNotSeen: RouteError[] = [
  { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
  { status: 403, codes: ['ERR_NO_PERMISSION'] },
];
const sendErrors: RouteError[] = [
  { status: 404, codes: ['ERR_NO_TICKET_FOUND', 'ERR_NO_CONNECTION_FOUND', 'ERR_NO_CONTACT_FOUND'] },
  { status: 403, codes: ['ERR_NO_PERMISSION'], description: "A user replying on another operator's ticket (notes are allowed)" },
  { status: 409, codes: ['ERR_TICKET_CLOSED'], description: 'Only notes may be added to a closed ticket' },
];
const ownMessageErrors: RouteError[] = [
  { status: 404, codes: ['ERR_NO_MESSAGE_FOUND', 'ERR_NO_CONNECTION_FOUND', 'ERR_NO_CONTACT_FOUND'] },
  { status: 403, codes: ['ERR_NOT_OWN_MESSAGE'], description: 'Not a message the company sent, or (for users) not one the caller sent' },
];

const messageId = z.string().min(1).max(64);
const MESSAGE_ID_EXAMPLE = '3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c';
const messageParam = z.object({ messageId: messageId.meta({ description: "The message's id (our uuid)", example: MESSAGE_ID_EXAMPLE }) });
const page = z.object({ pageNumber: pagedQuery.shape.pageNumber });
/** A ticket named by its id or, as the lineage's conversation page names it, by its uuid. */
export const ticketRef = z.object({
  ticketId: z
    .union([id, z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'expected a ticket id or uuid')])
    .meta({ description: "The ticket's id, or its uuid", example: 314 }),
});
/**
 * The quoted message as the lineage client sends it back (the message object it showed); only
 * its `id` is read. `quotedMsgId` names it directly.
 */
const quotedMessage = z
  .object({ id: messageId.meta({ description: 'The id of the quoted message' }) })
  .nullable()
  .optional()
  .meta({ description: 'The quoted message as the lineage client sends it back (only its `id` is read); null or absent: no quote' });

/** The operators' conversation: read (resets the unread count), send, note, quote, edit, revoke, forward. */
export function messageRoutes(app: Pick<Application, 'conversations'>) {
  const tag = 'Tickets and messages';
  const byTicket = idParam('ticketId');
  return [
    route({
      method: 'GET',
      path: '/messages/media',
      auth: 'isAuth',
      tag,
      summary: "The files of a ticket's conversation, newest first",
      query: page.extend({ ticketId: id.meta({ description: 'The ticket whose files are listed', example: 314 }) }),
      description: 'The messages carrying a file (images, audio, documents), 20 a page. Any user who may see the ticket; changes nothing.',
      response: messagePageSchema,
      errors: ticketNotSeen,
      handler: async ({ actor, query }) => app.conversations.listTicketMedia.execute({ actor, ticketId: query.ticketId, pageNumber: query.pageNumber }),
    }),
    route({
      method: 'GET',
      path: '/messages/:ticketId',
      auth: 'isAuth',
      tag,
      summary: "A page of a ticket's conversation (oldest first within the page); marks it read",
      params: ticketRef,
      query: page.extend({
        selectedQueues: z
          .string()
          .max(2000)
          .optional()
          .meta({ description: "Sent by the lineage client (its queue choice, as JSON); the conversation is the ticket's whatever it holds" }),
      }),
      description:
        "The ticket is named by its id or its uuid (the lineage's conversation page uses the uuid). Any user who may see the ticket. " +
        'Page 1 holds the 20 newest messages. Opening the conversation reads it: an unread count goes back to 0 and emits the `ticket` event ' +
        '(actions `update` and `updateUnread`).',
      response: ticketMessagePageSchema,
      errors: ticketNotSeen,
      handler: async ({ actor, params, query }) =>
        app.conversations.listTicketMessages.execute({ actor, ticketId: params.ticketId, pageNumber: query.pageNumber }),
    }),
    route({
      method: 'POST',
      path: '/messages/:ticketId',
      auth: 'isAuth',
      tag,
      summary: 'Send a text (JSON) or files (multipart, field `medias`), a quoted reply (`quotedMsg` or `quotedMsgId`) or a private note (`isPrivate`)',
      params: byTicket,
      headers: idempotencyHeader(
        "A key is unique per connection (the ticket's, shared with the message API's keys) and compared with the ticket, the user and the whole request: text, quote, note flag and the files' contents.",
      ),
      body: z
        .object({
          body: z.string().max(MAX_MESSAGE_LENGTH).nullable().default('').meta({ description: 'The text (null: none)' }),
          quotedMsgId: messageId.or(z.literal('')).nullable().optional().meta({
            description: 'The id of a message of the same conversation this one replies to; empty, null or absent: no quote (then `quotedMsg` is read)',
          }),
          quotedMsg: quotedMessage,
          isPrivate: formBoolean.optional().meta({
            description: '`true` or `1` (a form sends text): a private note for the operators, stored and never sent; absent: a message to the contact',
          }),
        })
        .meta({ example: { body: 'Your order left our warehouse today.', quotedMsgId: MESSAGE_ID_EXAMPLE, isPrivate: false } }),
      multipart: { fileFields: ['medias'], maxFileBytes: MAX_TICKET_MEDIA_BYTES, maxFiles: 10 },
      jsonOrMultipart: true,
      description:
        "One message per file, the text on the first. The lineage client's other fields (`read`, `fromMe`, `mediaUrl`) are ignored. " +
        'A send goes through the outbox and takes a pending ticket (it becomes `open` and the ' +
        "sender's); a private note is stored only. Emits an `appMessage` event (action `create`) per message, and the `ticket` event (action `update`) when the ticket changed. " +
        'An `Idempotency-Key` header makes a retry (a reply queued offline) answer the first result, sending and emitting nothing again.',
      response: sentMessagesSchema,
      errors: [
        ...sendErrors,
        { status: 409, codes: ['ERR_IDEMPOTENT_REQUEST_IN_PROGRESS'], description: 'A request with the same `Idempotency-Key` is still running' },
        {
          status: 422,
          codes: [
            'ERR_EMPTY_MESSAGE',
            'ERR_MESSAGE_TOO_LONG',
            'ERR_QUOTED_MESSAGE_NOT_FOUND',
            'ERR_EMPTY_FILE',
            'ERR_BIZCHAT_WINDOW_CLOSED',
            'ERR_INVALID_IDEMPOTENCY_KEY',
            'ERR_IDEMPOTENCY_KEY_REUSED',
          ],
        },
        { status: 413, codes: ['ERR_FILE_TOO_LARGE'] },
        { status: 403, codes: ['ERR_COMPANY_SUSPENDED'] },
      ],
      handler: async ({ actor, params, body, multipart, ctx }) =>
        app.conversations.sendTicketMessage.execute({
          actor,
          ticketId: params.ticketId,
          body: body.body ?? '',
          quotedMsgId: body.quotedMsgId || body.quotedMsg?.id || null,
          isPrivate: body.isPrivate,
          medias: multipart.files.medias ?? [],
          idempotencyKey: idempotencyKey(ctx),
        }),
    }),
    route({
      method: 'DELETE',
      path: '/messages/:messageId',
      auth: 'isAuth',
      tag,
      summary: 'Delete a sent message for everyone (revoke); it stays flagged for the operators',
      params: messageParam,
      description:
        'Admins any message the company sent, users their own. A message that reached the contact is revoked at the provider ' +
        '(chat-application sessions only); notes and failed sends are only flagged. Deleting twice changes nothing. Emits the `appMessage` event (action `update`).',
      response: messageViewSchema,
      errors: [
        ...ownMessageErrors,
        { status: 409, codes: ['ERR_MESSAGE_NOT_SENT'], description: 'The send is still on its way' },
        { status: 422, codes: ['ERR_REVOKE_NOT_SUPPORTED'] },
        { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
      ],
      handler: async ({ actor, params }) => app.conversations.revokeMessage.execute({ actor, messageId: params.messageId }),
    }),
    route({
      method: 'POST',
      path: '/messages/edit/:messageId',
      auth: 'isAuth',
      tag,
      summary: 'Change the text of a sent message or a note',
      params: messageParam,
      body: z
        .object({ body: z.string().max(MAX_MESSAGE_LENGTH).meta({ description: 'The new text, replacing the old one; it may not be blank' }) })
        .meta({ example: { body: 'Your order leaves our warehouse tomorrow.' } }),
      // The lineage client sends its whole composer state (`read`, `fromMe`, `quotedMsg`...); only `body` is read.
      description:
        'Admins any message the company sent, users their own. A note changes in place; a sent message is also edited at the provider ' +
        '(chat-application sessions only). Emits the `appMessage` event (action `update`).',
      response: messageViewSchema,
      errors: [
        ...ownMessageErrors,
        { status: 409, codes: ['ERR_MESSAGE_DELETED', 'ERR_MESSAGE_NOT_SENT'] },
        { status: 422, codes: ['ERR_EMPTY_MESSAGE', 'ERR_MESSAGE_TOO_LONG', 'ERR_EDIT_NOT_SUPPORTED'] },
        { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
      ],
      handler: async ({ actor, params, body }) => app.conversations.editMessage.execute({ actor, messageId: params.messageId, body: body.body }),
    }),
    route({
      method: 'GET',
      path: '/messages-allMe',
      auth: 'isAuth',
      tag,
      summary: "Count the messages sent or received (the dashboard's counters)",
      query: z.object({
        fromMe: z.enum(['true', 'false']).optional().meta({ description: "`true`: ours (operators, bots, the API); `false`: the contacts'; absent: both" }),
        dateStart: z.string().max(40).optional().meta({ description: "First day (`YYYY-MM-DD`, the company's time zone), included; absent: from the start" }),
        dateEnd: z.string().max(40).optional().meta({ description: 'Last day, included; absent: up to now' }),
      }),
      description:
        'Admins, and operators whose dashboard is enabled, count the whole company; any other operator the messages of the tickets assigned to ' +
        "them. Notes count as ours. Answers the lineage's shape, `{ count: [{ count }] }`.",
      response: messageCountSchema,
      errors: [{ status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE'] }],
      handler: async ({ actor, query }) =>
        app.conversations.countMessages.execute({
          actor,
          dateStart: query.dateStart,
          dateEnd: query.dateEnd,
          ...(query.fromMe ? { fromMe: query.fromMe === 'true' } : {}),
        }),
    }),
    route({
      method: 'POST',
      path: '/message/forward',
      auth: 'isAuth',
      tag,
      summary: 'Forward a message to another contact on the same connection',
      body: z
        .object({
          messageId: messageId.meta({ description: 'The message to forward (its text and file); not a private note' }),
          contactId: id.meta({ description: 'The contact of the company who receives the copy' }),
          signMessage: z.boolean().optional().meta({ description: 'Sent by the lineage client; the copy is sent as it was' }),
        })
        .meta({ example: { messageId: MESSAGE_ID_EXAMPLE, contactId: 42 } }),
      description:
        "The text and file go, as a new send, into the contact's active ticket on the message's connection, or a new one opened for the caller. " +
        'Emits the `ticket` event (action `create` or `update`) and an `appMessage` event (action `create`).',
      response: forwardedMessageSchema,
      errors: [
        { status: 404, codes: ['ERR_NO_MESSAGE_FOUND', 'ERR_NO_CONTACT_FOUND', 'ERR_NO_CONNECTION_FOUND', 'ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION', 'ERR_COMPANY_SUSPENDED'] },
        { status: 409, codes: ['ERR_MESSAGE_DELETED'] },
        { status: 422, codes: ['ERR_CANNOT_FORWARD_PRIVATE', 'ERR_EMPTY_MESSAGE'] },
      ],
      handler: async ({ actor, body }) => app.conversations.forwardMessage.execute({ actor, messageId: body.messageId, contactId: body.contactId }),
    }),
    route({
      method: 'POST',
      path: '/messages/:ticketId/catalog',
      auth: 'isAuth',
      tag,
      summary: 'Send products of the catalog into the conversation',
      params: byTicket,
      description:
        'The chosen products (`productIds`, in that order) or the active products of a category (`categoryId`, up to 30) go out as the ' +
        "operator's reply: `mode` `text` (default) as one list with prices in each product's currency after the optional intro `body`; " +
        '`images` as one message per product with its first image and the caption (name, price, description), a product without image as text. ' +
        'Inactive products are left out. Sent as `POST /messages/:ticketId` sends.',
      response: sentMessagesSchema,
      errors: [
        ...sendErrors,
        { status: 404, codes: ['ERR_PRODUCT_NOT_FOUND', 'ERR_CATEGORY_NOT_FOUND'], description: "A product or `categoryId` that is not the company's" },
        { status: 422, codes: ['ERR_INVALID_CATALOG_ITEMS', 'ERR_MESSAGE_TOO_LONG', 'ERR_BIZCHAT_WINDOW_CLOSED'] },
        { status: 403, codes: ['ERR_COMPANY_SUSPENDED'] },
      ],
      body: z
        .object({
          body: z
            .string()
            .max(1000)
            .optional()
            .meta({ description: 'An intro: the top of the list (`text`), or a text message before the products (`images`); absent: none' }),
          productIds: z
            .array(z.number().int().positive().max(2_147_483_647))
            .min(1)
            .max(30)
            .optional()
            .meta({ description: 'The products to send, in this order; give either these or `categoryId`' }),
          categoryId: z
            .number()
            .int()
            .positive()
            .max(2_147_483_647)
            .optional()
            .meta({ description: "Send this category's active products (the first 30); give either this or `productIds`" }),
          mode: z
            .enum(['text', 'images'])
            .optional()
            .meta({ description: '`text` (the default): one list with prices; `images`: one message per product, its first image with the caption' }),
        })
        .meta({ example: { body: 'Here are our best sellers:', productIds: [12, 15], mode: 'text' } }),
      handler: async ({ actor, params, body }) =>
        app.conversations.sendCatalog.execute({
          actor,
          ticketId: params.ticketId,
          body: body.body,
          mode: body.mode,
          productIds: body.productIds,
          categoryId: body.categoryId,
        }),
    }),
  ];
}
