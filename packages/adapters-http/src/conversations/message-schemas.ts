import { z } from 'zod';
import { ticketDetails } from '../tickets/ticket-schemas.js';

/**
 * The message views the API answers (`MessageView` of packages/core/src/messaging and the pages,
 * send results and official-API answers built on it), defined once.
 */

export const messageMediaSchema = z
  .object({
    key: z.string().meta({ description: 'Storage key', example: 'public/company-1/media/0f8c1d2e-invoice.pdf' }),
    url: z.string().meta({ description: 'Where the file can be downloaded', example: 'https://files.example.com/public/company-1/media/0f8c1d2e-invoice.pdf' }),
    contentType: z.string().meta({ example: 'application/pdf' }),
    filename: z.string().meta({ example: 'invoice.pdf' }),
    size: z.number().int().meta({ description: 'Bytes', example: 48213 }),
    status: z.enum(['pending', 'failed']).optional().meta({
      description:
        "A contact's file on its way: `pending` while it is fetched from the provider (`key` and `url` empty; an `appMessage` `update` follows), `failed` once given up (`error` says why). Absent: stored",
    }),
    error: z
      .string()
      .optional()
      .meta({ description: "Why a contact's file could not be kept (`ERR_MEDIA_…`), with `status` `failed`", example: 'ERR_MEDIA_TOO_LARGE' }),
  })
  .meta({
    id: 'MessageMedia',
    description: 'The file a message carries',
    example: {
      key: 'public/company-1/media/0f8c1d2e-invoice.pdf',
      url: 'https://files.example.com/public/company-1/media/0f8c1d2e-invoice.pdf',
      contentType: 'application/pdf',
      filename: 'invoice.pdf',
      size: 48213,
    },
  });

export const deliveryStatusSchema = z.enum(['pending', 'sent', 'delivered', 'read', 'played', 'failed']).meta({
  id: 'DeliveryStatus',
  description: 'Delivery moves only forward (pending, sent, delivered, read, played); `failed` is terminal and carries `failureReason`',
  example: 'delivered',
});

const MESSAGE_CONTACT_EXAMPLE = { id: 7, name: 'Maria Souza', number: '5511987654321', urlPicture: null };

const MESSAGE_EXAMPLE = {
  id: '3f2b8c4e-6a1d-4e7f-9b0c-2d5e8f1a4b7c',
  companyId: 1,
  ticketId: 42,
  contactId: 7,
  chatappId: 3,
  providerMessageId: '3EB0C767D26A1D8E',
  fromMe: true,
  body: 'Your invoice is attached.',
  media: null,
  status: 'delivered' as const,
  failureReason: null,
  quotedMessageId: null,
  isPrivate: false,
  userId: 2,
  createdAt: '2025-01-31T12:10:00.000Z',
  updatedAt: '2025-01-31T12:10:02.000Z',
  isDeleted: false,
  isEdited: false,
  editedAt: null,
  transcription: null,
  ack: 2,
  mediaUrl: null,
  mediaType: 'conversation',
  read: true,
  quotedMsg: null,
  contact: MESSAGE_CONTACT_EXAMPLE,
  ticket: {
    id: 42,
    uuid: '5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f',
    status: 'open',
    userId: 2,
    queueId: 1,
    chatappId: 3,
    queue: { id: 1, name: 'Support', color: '#0055ff' },
  },
};

/** What a message carries of the conversation's contact (core's `MessageContact`). */
export const messageContactSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    number: z.string(),
    urlPicture: z.string().nullable(),
  })
  .meta({ id: 'MessageContact', description: "The contact of the message's conversation", example: MESSAGE_CONTACT_EXAMPLE });

/** What a message carries of its ticket (core's `MessageTicketRef`). */
export const messageTicketSchema = z
  .object({
    id: z.number().int(),
    uuid: z.string(),
    status: z.string(),
    userId: z.number().int().nullable(),
    queueId: z.number().int().nullable(),
    chatappId: z.number().int(),
    queue: z.object({ id: z.number().int(), name: z.string(), color: z.string() }).nullable(),
  })
  .meta({ id: 'MessageTicket', description: 'The ticket a message belongs to', example: MESSAGE_EXAMPLE.ticket });

const mediaTypeSchema = z.string().meta({
  description:
    '`conversation` for a text; for a file the first part of its type (`image`, `audio`, `video`, `application`...); ' +
    "`locationMessage` or `contactMessage` for a location or contact cards the contact shared, held by `body` in the lineage client's shapes " +
    '(`image|link|description`, the link on OpenStreetMap with `mlat`/`mlon`; the vCards)',
  example: 'image',
});

/** The message a reply quotes (core's `QuotedMessageView`). */
export const quotedMessageSchema = z
  .object({
    id: z.string(),
    body: z.string(),
    fromMe: z.boolean(),
    mediaUrl: z.string().nullable(),
    mediaType: mediaTypeSchema,
    isDeleted: z.boolean(),
    createdAt: z.iso.datetime(),
    contact: messageContactSchema.nullable(),
  })
  .meta({
    id: 'QuotedMessage',
    description: 'The message a reply quotes',
    example: {
      id: MESSAGE_EXAMPLE.id,
      body: 'Can you send the invoice?',
      fromMe: false,
      mediaUrl: null,
      mediaType: 'conversation',
      isDeleted: false,
      createdAt: '2025-01-31T12:09:00.000Z',
      contact: MESSAGE_CONTACT_EXAMPLE,
    },
  });

/** `MessageView`: a message with ISO dates and the lineage's `ack`. */
export const messageViewSchema = z
  .object({
    id: z.string().meta({ description: 'Our id (a uuid): the idempotency key of its send', example: MESSAGE_EXAMPLE.id }),
    companyId: z.number().int(),
    ticketId: z.number().int(),
    contactId: z.number().int(),
    chatappId: z.number().int().meta({ description: 'The connection the message went through' }),
    providerMessageId: z.string().nullable().meta({ description: "The provider's id; null until the send is confirmed (and for private notes)" }),
    fromMe: z.boolean().meta({ description: 'Sent by the company (an operator, the bot or the API), not by the contact' }),
    body: z.string(),
    media: messageMediaSchema.nullable(),
    status: deliveryStatusSchema,
    failureReason: z.string().nullable().meta({ description: 'Why the send failed, when `status` is `failed`' }),
    quotedMessageId: z.string().nullable().meta({ description: 'The message this one replies to' }),
    isPrivate: z.boolean().meta({ description: 'A private note: seen by operators only, never sent' }),
    userId: z.number().int().nullable().meta({ description: 'The operator who sent it; null for the contact, the bot or the API' }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    isDeleted: z.boolean().meta({ description: 'Revoked: gone for the contact, still shown to operators' }),
    isEdited: z.boolean(),
    editedAt: z.iso.datetime().nullable(),
    transcription: z.string().nullable().meta({
      description: 'What a speech-to-text service heard in its audio (`POST /transcription/:ticketId`); null until transcribed. The body stays as it was',
    }),
    ack: z.number().int().min(-1).max(4).meta({ description: "The lineage's delivery number: 0 pending, 1 sent, 2 delivered, 3 read, 4 played, -1 failed" }),
    mediaUrl: z.string().nullable().meta({ description: 'Where its file is (`media.url`); null for a text' }),
    mediaType: mediaTypeSchema,
    read: z.boolean().meta({ description: "Seen by the operators: our own messages always, the contact's once the conversation was opened" }),
    quotedMsg: quotedMessageSchema.nullable().meta({ description: 'The message this one replies to' }),
    contact: messageContactSchema.nullable().meta({ description: 'The contact of the conversation' }),
    ticket: messageTicketSchema.nullable().meta({ description: 'The ticket the message belongs to' }),
  })
  .meta({ id: 'Message', description: "A message of a ticket's conversation", example: MESSAGE_EXAMPLE });

const pageFields = {
  count: z.number().int().meta({ description: 'How many messages there are in all', example: 1 }),
  hasMore: z.boolean().meta({ description: 'A next page exists (pages of 20)', example: false }),
};

export const messagePageSchema = z.object({ messages: z.array(messageViewSchema), ...pageFields }).meta({
  id: 'MessagePage',
  description: 'A page (20) of messages, newest first',
  example: { messages: [MESSAGE_EXAMPLE], count: 1, hasMore: false },
});

/** The lineage's shape, its count query's rows: its dashboard reads `count[0].count`. */
export const messageCountSchema = z
  .object({
    count: z
      .array(z.object({ count: z.number().int().meta({ example: 128 }) }))
      .length(1)
      .meta({ description: 'One row: `[{ count }]`' }),
  })
  .meta({ id: 'MessageCount', description: 'How many messages match', example: { count: [{ count: 128 }] } });

export const ticketMessagePageSchema = z
  .object({
    messages: z.array(messageViewSchema).meta({ description: 'Page 1 holds the 20 newest, oldest first within the page' }),
    ticket: ticketDetails,
    ...pageFields,
  })
  .meta({ id: 'TicketMessagePage', description: "A page of a ticket's conversation with the ticket (now read)" });

export const sentMessagesSchema = z
  .object({
    messages: z.array(messageViewSchema).meta({ description: 'One message per file (the text goes with the first), or one text message' }),
    ticket: ticketDetails,
  })
  .meta({ id: 'SentMessages', description: 'The messages stored (and queued for sending unless private) and the ticket after them' });

export const forwardedMessageSchema = z
  .object({
    ticket: ticketDetails.meta({ description: "The target contact's active ticket (opened for the forward when there was none)" }),
    message: messageViewSchema,
  })
  .meta({ id: 'ForwardedMessage', description: 'The forwarded copy and the ticket it went to' });

export const apiSendResultSchema = z
  .object({
    status: z.literal('SUCCESS'),
    message: z.string().meta({ example: 'Message accepted for delivery' }),
    ticketId: z.number().int().meta({ description: "The contact's active ticket on the connection (opened if none)", example: 42 }),
    messageIds: z.array(z.string()).meta({ description: 'One per message queued (one per file, or one text)', example: [MESSAGE_EXAMPLE.id] }),
    messageId: z.string().meta({ description: 'The first of `messageIds`', example: MESSAGE_EXAMPLE.id }),
  })
  .meta({
    id: 'ApiSendResult',
    description: 'The send is durably accepted (stored with its send command); delivery happens after the answer',
    example: { status: 'SUCCESS', message: 'Message accepted for delivery', ticketId: 42, messageIds: [MESSAGE_EXAMPLE.id], messageId: MESSAGE_EXAMPLE.id },
  });

export const checkNumberResultSchema = z
  .object({
    number: z.string().meta({ description: 'The number asked about', example: '5511987654321' }),
    exists: z.boolean().meta({ example: true }),
    id: z.string().nullable().meta({
      description: "The provider's normalized id for the number (e.g. with the ninth digit added); null when unknown",
      example: '5511987654321@s.whatsapp.net',
    }),
  })
  .meta({
    id: 'CheckNumberResult',
    description: "Whether the number has an account on the connection's channel",
    example: { number: '5511987654321', exists: true, id: '5511987654321@s.whatsapp.net' },
  });
