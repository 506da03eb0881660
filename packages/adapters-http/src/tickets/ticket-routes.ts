import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery } from '../http/schemas.js';
import { ticketCount, ticketDetails, ticketLogEntry, ticketPage, ticketReport } from './ticket-schemas.js';

const status = z.enum(['pending', 'open', 'closed']);
/** The lineage's list tabs: a status, `search` (every status) or `group` (the active group conversations). */
const listStatus = z.enum(['pending', 'open', 'closed', 'search', 'group']);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

/** The lineage sends id lists as JSON (`[1,2]`); a comma-separated list or repeated parameters work too. */
export function listOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])).filter((v) => v !== '');
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text.startsWith('[')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return value;
    }
  }
  return text === '' ? [] : text.split(',');
}
const idList = z.preprocess(listOf, z.array(id).max(100));
const LIST_FORMS = 'a JSON list (`[1,2]`), a comma-separated list or the parameter repeated; empty: any';

/**
 * The lineage's list filters; `tags` selects the tickets carrying any of the tags, `chatapps`
 * (the lineage's `whatsapps`, under the naming rule) the tickets on any of the connections.
 */
export const ticketListFilters = z.object({
  searchParam: z.string().max(200).optional().meta({
    description: "Text to look for in the contact's name or number or in the last message (ignoring case and accents); empty or absent: every ticket",
  }),
  status: listStatus.optional().meta({
    description: 'The tab: a ticket status, `search` (every status) or `group` (the active group conversations); absent: every status',
    example: 'open',
  }),
  statusFilter: z
    .preprocess(listOf, z.array(listStatus).max(10))
    .optional()
    .meta({ description: "The search tab's status choices (JSON list): tickets in any of them; `group` alone: the active group conversations" }),
  showAll: formBoolean.optional().meta({
    description:
      '`true` or `1`: every ticket, for admins and users with `allTicket` (ignored for others); otherwise the pending tickets ' +
      "(for users without `allTicket`, of their queues or of none) and the caller's own",
  }),
  queueIds: idList.optional().meta({ description: `Only tickets in any of these queues: ${LIST_FORMS}`, example: [1, 2] }),
  users: idList.optional().meta({ description: `Only tickets assigned to any of these users: ${LIST_FORMS}`, example: [5] }),
  tags: idList.optional().meta({ description: `Only tickets carrying any of these tags: ${LIST_FORMS}`, example: [7] }),
  chatapps: idList.optional().meta({ description: `Only tickets on any of these connections: ${LIST_FORMS}`, example: [2] }),
  chatappId: id.optional().meta({ description: 'Only tickets on this connection', example: 2 }),
  sortTickets: z
    .enum(['ASC', 'DESC'])
    .optional()
    .meta({ description: 'Accepted for the lineage client, which orders the loaded tickets itself; pages are always newest activity first' }),
  searchOnMessages: formBoolean.optional().meta({ description: 'Accepted for the lineage client; `searchParam` always looks in the last message too' }),
  withUnreadMessages: formBoolean.optional().meta({ description: '`true` or `1`: only tickets with unread messages' }),
  isGroup: formBoolean.optional().meta({ description: '`true` or `1`: only group conversations; `false` or `0`: only people; absent: both' }),
  dateFrom: day.optional().meta({ description: 'First creation day (UTC), included', example: '2025-03-01' }),
  dateTo: day.optional().meta({ description: 'Last creation day (UTC), included', example: '2025-03-31' }),
  date: day.optional().meta({ description: 'One creation day (UTC), in place of `dateFrom` and `dateTo`', example: '2025-03-10' }),
  updatedAt: day.optional().meta({ description: 'Only tickets whose last activity falls on this day (UTC)', example: '2025-03-10' }),
});

export function ticketListInput(query: z.infer<typeof ticketListFilters>) {
  const { tags, users, chatapps, sortTickets: _sort, searchOnMessages: _messages, ...rest } = query;
  return { ...rest, userIds: users, tagIds: tags, chatappIds: chatapps };
}

/**
 * Tickets: the operators' lists and counts, one ticket, its history, the admin's report, and the
 * ticket actions (create, accept, transfer, close, ignore, delete, close all, LGPD answer).
 */
export function ticketRoutes(app: Pick<Application, 'tickets'>) {
  const tag = 'Tickets and messages';
  const byId = idParam('ticketId');
  return [
    route({
      method: 'PUT',
      path: '/tickets/:ticketId/ignore',
      auth: 'isAuth',
      tag,
      summary: 'Close a ticket without farewell, logged as ignored',
      params: byId,
      description:
        'For spam or a stray group: the ticket closes without the farewell message and its history records an `ignore` entry. ' +
        'Any user who may see the ticket and change it (admins, its operator, anyone while it is unassigned). ' +
        'A closing emits the `ticket` event (action `update`); an already closed ticket is answered unchanged.',
      response: ticketDetails,
      errors: [
        { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
      ],
      handler: async ({ actor, params }) => app.tickets.ignoreTicket.execute({ actor, ticketId: params.ticketId }),
    }),
    route({
      method: 'GET',
      path: '/tickets',
      auth: 'isAuth',
      tag,
      summary: 'Page through the tickets the caller may see, newest activity first',
      query: ticketListFilters.extend({ pageNumber: pagedQuery.shape.pageNumber }),
      description:
        'Pages of 20. Without `showAll` (or without the right to it: admins and users with `allTicket`) a user sees the pending tickets ' +
        'of their queues (or of no queue) and their own. `status` is a tab of the lineage client: a ticket status, `search` (every status) or ' +
        '`group` (the active group conversations). `dateFrom`/`dateTo`/`date` filter by creation day, `updatedAt` by day of last activity (UTC).',
      response: ticketPage,
      errors: [{ status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE'] }],
      handler: async ({ actor, query }) => app.tickets.listTickets.execute({ actor, ...ticketListInput(query), pageNumber: query.pageNumber }),
    }),
    route({
      method: 'GET',
      path: '/tickets/count',
      auth: 'isAuth',
      tag,
      summary: 'Count the tickets the list filters select',
      query: ticketListFilters,
      description: 'The same filters and visibility as `GET /tickets`, for the badges of the panel tabs.',
      response: ticketCount,
      errors: [{ status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE'] }],
      handler: async ({ actor, query }) => app.tickets.countTickets.execute({ actor, ...ticketListInput(query) }),
    }),
    route({
      method: 'GET',
      path: '/tickets/:ticketId',
      auth: 'isAuth',
      tag,
      summary: 'Show a ticket with its contact, connection and user',
      params: byId,
      description: 'Any user who may see the ticket (as in the list with `showAll`); changes nothing.',
      response: ticketDetails,
      errors: [
        { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
      ],
      handler: async ({ actor, params }) => app.tickets.showTicket.execute({ actor, ticketId: params.ticketId }),
    }),
    route({
      method: 'GET',
      path: '/tickets-log/:ticketId',
      auth: 'isAuth',
      tag,
      summary: "A ticket's history, oldest first",
      params: byId,
      description:
        'Every change recorded on the ticket (create, accept, transfer, return to the queue, close, reopen, ignore, LGPD answer), ' +
        'with the name of whoever made it. Any user who may see the ticket.',
      response: z.array(ticketLogEntry),
      errors: [
        { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
      ],
      handler: async ({ actor, params }) => app.tickets.listTicketLogs.execute({ actor, ticketId: params.ticketId }),
    }),
    route({
      method: 'GET',
      path: '/ticketreport/reports',
      auth: 'isAuth',
      tag,
      summary: "The admin's ticket report, with message counts",
      query: z.object({
        dateFrom: day.optional().meta({ description: 'First creation day (UTC), included; absent: from the first ticket', example: '2025-03-01' }),
        dateTo: day.optional().meta({ description: 'Last creation day (UTC), included; absent: up to now', example: '2025-03-31' }),
        userId: id.optional().meta({ description: "Only the tickets assigned to this user; absent: everyone's", example: 5 }),
        pageNumber: pagedQuery.shape.pageNumber,
        status: z.preprocess(listOf, z.array(status).max(3)).optional().meta({
          description:
            'A status, or several as the lineage\'s Reports page sends them (`["open","closed"]`, JSON; a comma-separated list works too): tickets in any of them; `[]`: every status',
        }),
      }),
      description: 'Admins only: every ticket of the company created in the range (UTC days, both inclusive), 20 a page, with how many messages each holds.',
      response: ticketReport,
      errors: [
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE'] },
      ],
      handler: async ({ actor, query }) => {
        const { status: statuses, ...rest } = query;
        return app.tickets.ticketReport.execute({ actor, ...rest, ...(statuses ? { statuses } : {}) });
      },
    }),
    route({
      method: 'GET',
      path: '/tickets/u/:uuid',
      auth: 'isAuth',
      tag,
      summary: 'Show a ticket by its uuid',
      params: z.object({
        uuid: z.string().min(1).max(64).meta({ description: "The ticket's uuid, as in its shared link", example: '3f2b8c1e-9a4d-4e7b-8c2a-1d5e6f7a8b9c' }),
      }),
      description: 'For links shared between operators; the same visibility as `GET /tickets/:ticketId`.',
      response: ticketDetails,
      errors: [
        { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
      ],
      handler: async ({ actor, params }) => app.tickets.showTicketByUuid.execute({ actor, uuid: params.uuid }),
    }),
    route({
      method: 'POST',
      path: '/tickets',
      auth: 'isAuth',
      tag,
      summary: 'Open a ticket with a contact (409 ERR_OTHER_OPEN_TICKET when one is active)',
      status: 201,
      description:
        "On the given connection (`chatappId`; null or absent: the company's default one); `open` (the default; the lineage's `group` " +
        'means the same) assigns it to the caller or, for admins, to `userId`. Emits the `ticket` event (action `create`).',
      response: ticketDetails,
      errors: [
        { status: 404, codes: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_CONNECTION_FOUND', 'ERR_NO_DEFAULT_CONNECTION', 'ERR_NO_USER_FOUND', 'ERR_QUEUE_NOT_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 409, codes: ['ERR_OTHER_OPEN_TICKET'] },
        { status: 422, codes: ['ERR_PENDING_TICKET_HAS_NO_USER'] },
      ],
      body: z
        .object({
          contactId: id.meta({ description: 'The contact to talk with' }),
          chatappId: id.nullable().optional().meta({ description: "The connection to talk on; null or absent: the company's default connection" }),
          status: z.enum(['open', 'pending', 'group']).optional().meta({
            description: "`open` (the default; the lineage's `group` means the same) is assigned at once; `pending` waits in the queue for anyone",
          }),
          userId: id.nullable().optional().meta({
            description: 'Who the `open` ticket is assigned to: another user takes an admin; null or absent: the caller. Not with `pending`',
          }),
          queueId: id.nullable().optional().meta({ description: "The ticket's queue, one of the company's; null or absent: none" }),
        })
        .meta({ example: { contactId: 42, chatappId: 2, status: 'open', queueId: 1 } }),
      handler: async ({ actor, body }) => {
        const { chatappId, status: wanted, ...rest } = body;
        const status = wanted === 'group' ? 'open' : wanted;
        return app.tickets.createTicket.execute({ actor, ...rest, ...(status ? { status } : {}), connectionId: chatappId ?? undefined });
      },
    }),
    route({
      method: 'PUT',
      path: '/tickets/:ticketId',
      auth: 'isAuth',
      tag,
      summary: 'Accept, transfer, return to the queue, reopen, close (farewell, rating) or mark unread a ticket',
      params: byId,
      description:
        "Any user who may see the ticket; changing another operator's ticket takes an admin. A close sends the connection's farewell " +
        'message (unless `sendFarewellMessage: false`, never to groups) through the outbox. Emits the `ticket` event (action `update`), ' +
        'and an `appMessage` event (action `create`) for the farewell; `markUnread` also emits `updateUnread`. A request that changes nothing answers the ticket as it is.',
      response: ticketDetails,
      errors: [
        { status: 404, codes: ['ERR_NO_TICKET_FOUND', 'ERR_NO_USER_FOUND', 'ERR_QUEUE_NOT_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
        { status: 409, codes: ['ERR_TICKET_CLOSED'] },
        { status: 422, codes: ['ERR_NOTHING_TO_UPDATE', 'ERR_INVALID_RATING', 'ERR_PENDING_TICKET_HAS_NO_USER'] },
      ],
      body: z
        .object({
          status: z
            .enum(['pending', 'open', 'closed', 'group'])
            .optional()
            .meta({ description: "`group` is the lineage's status of an accepted group conversation: the same as `open`" }),
          userId: id.nullable().optional().meta({
            description: 'Hand the ticket to this user (the caller: an accept); null puts it back in the queue as pending; absent: unchanged',
          }),
          queueId: id.nullable().optional().meta({ description: 'Move the ticket to this queue of the company; null: no queue; absent: unchanged' }),
          rating: z.number().int().min(1).max(5).optional().meta({ description: "The contact's rating, recorded with a close: only with `status: closed`" }),
          sendFarewellMessage: z
            .boolean()
            .optional()
            .meta({ description: "`false`: close without the connection's farewell message; absent or `true`: send it when the connection has one" }),
          markUnread: z
            .boolean()
            .optional()
            .meta({
              description:
                '`true`: show the conversation as unread again: its `unreadMessages` becomes at least 1 (listing its messages resets it to 0) and a ' +
                '`ticket` event (action `updateUnread`) is emitted; open to any user who may see the ticket, alone or with a change; absent or `false`: unchanged',
            }),
        })
        .meta({ example: { status: 'closed', rating: 5, sendFarewellMessage: true } }),
      handler: async ({ actor, params, body }) => {
        const { status: wanted, ...rest } = body;
        const status = wanted === 'group' ? 'open' : wanted;
        return app.tickets.updateTicket.execute({ actor, ticketId: params.ticketId, ...rest, ...(status ? { status } : {}) });
      },
    }),
    route({
      method: 'DELETE',
      path: '/tickets/:ticketId',
      auth: 'isAuth',
      tag,
      summary: 'Delete a ticket and its messages (admin)',
      params: byId,
      description: "Admins only. The ticket's history keeps a `delete` entry; emits the `ticket` event (action `delete`, with `ticketId`).",
      response: z
        .object({ message: z.literal('Ticket deleted') })
        .meta({ id: 'TicketDeleted', description: 'The ticket is gone', example: { message: 'Ticket deleted' } }),
      errors: [
        { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
      ],
      handler: async ({ actor, params }) => {
        await app.tickets.deleteTicket.execute({ actor, ticketId: params.ticketId });
        return { message: 'Ticket deleted' as const };
      },
    }),
    route({
      method: 'POST',
      path: '/tickets/closeAll',
      auth: 'isAuth',
      tag,
      summary: 'Close every active ticket the caller may change (optionally only pending or open)',
      body: z
        .object({
          status: z
            .enum(['pending', 'open', 'group'])
            .optional()
            .meta({ description: 'Only the `pending` or the `open` tickets, or (`group`) the active group conversations; absent: every active ticket' }),
        })
        .meta({ example: { status: 'pending' } }),
      description:
        "Admins close all of the company's active tickets, users the unassigned ones and their own; no farewell goes out. " +
        '`status` narrows it to a tab of the lineage client (`pending`, `open`, or `group`: the group conversations). ' +
        'Emits one `ticket` event (action `closeMany`) naming the closed ids.',
      response: z
        .object({ closed: z.number().int().meta({ description: 'How many tickets were closed', example: 3 }) })
        .meta({ id: 'TicketsClosed', description: 'How many tickets the bulk close closed', example: { closed: 3 } }),
      handler: async ({ actor, body }) => app.tickets.closeAllTickets.execute({ actor, status: body.status }),
    }),
    route({
      method: 'POST',
      path: '/lgpd-response',
      auth: 'isAuth',
      tag,
      summary: "Record a contact's answer to the LGPD consent prompt (refusal closes the ticket)",
      body: z
        .object({
          ticketId: id.meta({ description: 'The ticket whose contact answered' }),
          accepted: z.boolean().meta({ description: '`true`: the contact accepted; `false`: refused, the ticket closes without farewell' }),
        })
        .meta({ example: { ticketId: 314, accepted: true } }),
      description:
        "Logged as an `lgpd` entry of the ticket's history. A refusal closes the ticket without farewell " +
        '(`ticket` event, action `update`); an acceptance changes nothing else.',
      response: ticketDetails,
      errors: [
        { status: 404, codes: ['ERR_NO_TICKET_FOUND'] },
        { status: 403, codes: ['ERR_NO_PERMISSION'] },
      ],
      handler: async ({ actor, body }) => app.tickets.recordLgpdResponse.execute({ actor, ticketId: body.ticketId, accepted: body.accepted }),
    }),
  ];
}
