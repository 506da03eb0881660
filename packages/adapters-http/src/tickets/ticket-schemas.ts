import { z } from 'zod';
import { tagSummarySchema } from '../tags/tag-schemas.js';

/**
 * The ticket views the API answers (`TicketView`, `TicketDetails` and the report and history rows
 * of packages/core/src/messaging): defined once here, imported wherever another answer embeds a ticket.
 */

const at = (description: string, example: string) => z.iso.datetime().meta({ description, example });

export const ticketStatus = z.enum(['pending', 'open', 'closed']).meta({
  id: 'TicketStatus',
  description: '`pending`: waiting in a queue for an operator; `open`: an operator is attending it; `closed`: finished',
  example: 'open',
});

/** A ticket as stored, with ISO dates (core's `TicketView`). */
export const ticketView = z.object({
  id: z.number().int().meta({ example: 42 }),
  uuid: z.string().meta({ description: 'Public id, for links shared between operators', example: '5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f' }),
  companyId: z.number().int().meta({ example: 1 }),
  contactId: z.number().int().meta({ example: 7 }),
  chatappId: z
    .number()
    .int()
    .meta({ description: "The connection (channel) the conversation runs on (the lineage's `whatsappId`, under the naming rule)", example: 3 }),
  status: ticketStatus,
  userId: z.number().int().nullable().meta({ description: 'The operator attending it; null while pending in a queue', example: 2 }),
  queueId: z.number().int().nullable().meta({ example: 1 }),
  unreadMessages: z.number().int().meta({ description: "The contact's messages the operators have not read yet", example: 0 }),
  lastMessage: z.string().meta({ description: 'The text of the latest message, for the list', example: 'Thanks, that solved it!' }),
  isGroup: z.boolean().meta({ example: false }),
  closedAt: at('When it was last closed; null while active', '2025-01-31T12:30:00.000Z').nullable(),
  createdAt: at('When it was opened', '2025-01-31T12:00:00.000Z'),
  updatedAt: at('Its last activity', '2025-01-31T12:30:00.000Z'),
  queueOptionId: z
    .number()
    .int()
    .nullable()
    .meta({ description: "The menu node whose options the contact is answering (null: the queue's first menu, or the queue menu)", example: null }),
  botAttempts: z.number().int().meta({ description: 'Invalid replies to the current menu so far', example: 0 }),
  botActive: z.boolean().meta({ description: "The bot is waiting for the contact's reply", example: false }),
});

const ticketViewExample = {
  id: 42,
  uuid: '5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f',
  companyId: 1,
  contactId: 7,
  chatappId: 3,
  status: 'open' as const,
  userId: 2,
  queueId: 1,
  unreadMessages: 0,
  lastMessage: 'Thanks, that solved it!',
  isGroup: false,
  closedAt: null,
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-01-31T12:30:00.000Z',
  queueOptionId: null,
  botAttempts: 0,
  botActive: false,
};

/** `{ id, name }` of a connection (the admin's report). */
export const ticketConnection = z.object({ id: z.number().int(), name: z.string() }).meta({
  id: 'TicketConnection',
  description: 'What a report row carries of its connection',
  example: { id: 3, name: 'Support WhatsApp' },
});

/** What a ticket carries of its connection (core's `TicketChatapp`): the lineage's `whatsapp` object, `chatapp` under the naming rule. */
export const ticketChatapp = z
  .object({
    id: z.number().int(),
    name: z.string(),
    channel: z.enum(['chatapp', 'socialnet', 'bizchat']).meta({ description: "The connection's kind" }),
    status: z.string().meta({ description: "The session's state (`CONNECTED`, `qrcode`, `DISCONNECTED`...)" }),
    isDefault: z.boolean(),
  })
  .meta({
    id: 'TicketChatapp',
    description: 'What a ticket carries of its connection',
    example: { id: 3, name: 'Support WhatsApp', channel: 'chatapp', status: 'CONNECTED', isDefault: true },
  });

/** `{ id, name, color }` of a ticket's queue. */
export const ticketQueue = z.object({ id: z.number().int(), name: z.string(), color: z.string() }).meta({
  id: 'TicketQueue',
  description: 'What a ticket carries of its queue',
  example: { id: 1, name: 'Support', color: '#0055ff' },
});

/** `{ id, name }` of a user (the operator of a ticket, the author of a log entry). */
export const ticketUser = z.object({ id: z.number().int(), name: z.string() }).meta({
  id: 'TicketUser',
  description: 'What a ticket (or a history entry) carries of a platform user',
  example: { id: 2, name: 'Ana Operator' },
});

const TICKET_CONTACT_EXAMPLE = {
  id: 7,
  companyId: 1,
  name: 'Maria Souza',
  number: '5511987654321',
  email: null,
  isGroup: false,
  urlPicture: null,
  blocked: false,
  active: true,
  acceptAudioMessage: true,
  disableBot: false,
  walletUserId: null,
  linkedUserId: null,
  extraInfo: [],
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-01-31T12:00:00.000Z',
  tags: [],
};

/** The contact a ticket is with (core's `TicketContact`): the contact as its own routes show it, with its tags. */
export const ticketContact = z
  .object({
    id: z.number().int(),
    companyId: z.number().int(),
    name: z.string(),
    number: z.string(),
    email: z.string().nullable(),
    isGroup: z.boolean(),
    urlPicture: z.string().nullable().meta({ description: 'The picture the channel last gave' }),
    blocked: z.boolean(),
    active: z.boolean().meta({ description: 'Not blocked' }),
    acceptAudioMessage: z.boolean(),
    disableBot: z.boolean(),
    walletUserId: z.number().int().nullable(),
    linkedUserId: z.number().int().nullable(),
    extraInfo: z.array(z.object({ name: z.string(), value: z.string() })),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    tags: z.array(tagSummarySchema).meta({ description: "The contact's own tags" }),
  })
  .meta({ id: 'TicketContact', description: 'The contact a ticket is with, with its tags', example: TICKET_CONTACT_EXAMPLE });

/** A ticket as the panel shows it (core's `TicketDetails`). */
export const ticketDetails = ticketView
  .extend({
    channel: z.enum(['chatapp', 'socialnet', 'bizchat']).nullable().meta({ description: 'The kind of its connection; null if the connection is gone' }),
    contact: ticketContact.nullable().meta({ description: 'Null if the contact is gone' }),
    chatapp: ticketChatapp.nullable().meta({ description: "Its connection (the lineage's `whatsapp`); null if the connection is gone" }),
    queue: ticketQueue.nullable().meta({ description: 'Its queue; null while in none' }),
    user: ticketUser.nullable().meta({ description: 'The operator attending it; null while pending (or if the user is gone)' }),
    tags: z.array(tagSummarySchema).meta({ description: 'Its tags, by name' }),
  })
  .meta({
    id: 'TicketDetails',
    description: 'A ticket with its contact, its connection, its queue, its operator and its tags',
    example: {
      ...ticketViewExample,
      channel: 'chatapp',
      contact: TICKET_CONTACT_EXAMPLE,
      chatapp: { id: 3, name: 'Support WhatsApp', channel: 'chatapp', status: 'CONNECTED', isDefault: true },
      queue: { id: 1, name: 'Support', color: '#0055ff' },
      user: { id: 2, name: 'Ana Operator' },
      tags: [{ id: 5, name: 'VIP', color: '#ff8800', kanban: false }],
    },
  });

export const ticketPage = z
  .object({
    tickets: z.array(ticketDetails),
    count: z.number().int().meta({ description: 'How many tickets the filters select in all', example: 1 }),
    hasMore: z.boolean().meta({ description: 'A next page exists (pages of 20)', example: false }),
  })
  .meta({ id: 'TicketPage', description: 'One page of tickets, newest activity first' });

export const ticketCount = z
  .object({ count: z.number().int().meta({ example: 12 }) })
  .meta({ id: 'TicketCount', description: 'How many tickets the filters select', example: { count: 12 } });

export const ticketLogType = z.enum(['create', 'open', 'transfered', 'pending', 'closed', 'reopen', 'ignore', 'lgpd', 'delete']).meta({
  id: 'TicketLogType',
  description:
    "What happened, in the lineage client's words: `open` an acceptance, `transfered` a transfer, `pending` a return to the queue, " +
    "`closed` a close, `ignore` a close without farewell, `lgpd` a contact's answer to the consent prompt",
  example: 'open',
});

export const ticketLogEntry = z
  .object({
    id: z.number().int(),
    ticketId: z.number().int(),
    type: ticketLogType,
    payload: z.record(z.string(), z.unknown()).meta({
      description: 'Free-form details of the change as stored (from/to state, rating, bulk close...); its keys depend on `type`',
    }),
    userId: z.number().int().nullable().meta({ description: 'Who did it; null for the system' }),
    user: ticketUser.nullable().meta({ description: 'Null for the system, or a user since deleted' }),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: 'TicketLogEntry',
    description: "One entry of a ticket's history",
    example: {
      id: 9,
      ticketId: 42,
      type: 'open',
      payload: { from: 'pending', to: 'open' },
      userId: 2,
      user: { id: 2, name: 'Ana Operator' },
      createdAt: '2025-01-31T12:05:00.000Z',
    },
  });

export const ticketReportRow = z
  .object({
    id: z.number().int(),
    uuid: z.string(),
    contact: z.object({ id: z.number().int(), name: z.string(), number: z.string() }).nullable(),
    chatapp: ticketConnection.nullable().meta({ description: 'Its connection; null if the connection is gone' }),
    status: ticketStatus,
    user: ticketUser.nullable(),
    createdAt: z.iso.datetime(),
    closedAt: z.iso.datetime().nullable(),
    messages: z.number().int().meta({ description: 'How many messages the ticket holds (private notes included)' }),
  })
  .meta({
    id: 'TicketReportRow',
    description: "One ticket of the admin's report",
    example: {
      id: 42,
      uuid: '5b0a3f4e-8f5c-4a57-9d0e-1c2b3a4d5e6f',
      contact: { id: 7, name: 'Maria Souza', number: '5511987654321' },
      chatapp: { id: 3, name: 'Support WhatsApp' },
      status: 'closed',
      user: { id: 2, name: 'Ana Operator' },
      createdAt: '2025-01-31T12:00:00.000Z',
      closedAt: '2025-01-31T12:30:00.000Z',
      messages: 14,
    },
  });

export const ticketReport = z
  .object({
    tickets: z.array(ticketReportRow),
    count: z.number().int().meta({ example: 1 }),
    hasMore: z.boolean().meta({ example: false }),
    totalTickets: z.object({ total: z.number().int().meta({ example: 1 }) }).meta({ description: "`count` again, where the lineage's Reports page reads it" }),
  })
  .meta({ id: 'TicketReport', description: "One page (20) of the admin's ticket report, newest activity first" });
