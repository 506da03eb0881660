import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery } from '../http/schemas.js';

const status = z.enum(['pending', 'open', 'closed']);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

/** The lineage sends id lists as JSON (`[1,2]`); a comma-separated list or repeated parameters work too. */
function listOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.flatMap((v) => (typeof v === 'string' ? v.split(',') : [v])).filter((v) => v !== '');
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (text.startsWith('[')) {
    try { return JSON.parse(text) as unknown; } catch { return value; }
  }
  return text === '' ? [] : text.split(',');
}
const idList = z.preprocess(listOf, z.array(id).max(100));

/** The lineage's list filters; `tags` selects the tickets carrying any of the tags. */
export const ticketListFilters = z.object({
  searchParam: z.string().max(200).optional(),
  status: status.optional(),
  showAll: formBoolean.optional(),
  queueIds: idList.optional(),
  users: idList.optional(),
  tags: idList.optional(),
  connectionId: id.optional(),
  withUnreadMessages: formBoolean.optional(),
  isGroup: formBoolean.optional(),
  dateFrom: day.optional(),
  dateTo: day.optional(),
  date: day.optional(),
  updatedAt: day.optional(),
});

export function ticketListInput(query: z.infer<typeof ticketListFilters>) {
  const { tags, users, ...rest } = query;
  return { ...rest, userIds: users, tagIds: tags };
}

export interface TicketRoutesOptions {
  /** Starts the outbox relay after a commit that queued a send (a close's farewell). */
  readonly pokeOutbox: () => void;
}

/**
 * Tickets: the operators' lists and counts, one ticket, its history, the admin's report, and the
 * ticket actions (create, accept, transfer, close, ignore, delete, close all, LGPD answer).
 */
export function ticketRoutes(app: Application, o: TicketRoutesOptions) {
  const tag = 'Tickets and messages';
  const byId = idParam('ticketId');
  return [
    route({
      method: 'PUT', path: '/tickets/:ticketId/ignore', auth: 'isAuth', tag, summary: 'Close a ticket without farewell, logged as ignored', params: byId,
      handler: async ({ actor, params }) => app.ignoreTicket.execute({ actor, ticketId: params.ticketId }),
    }),
    route({
      method: 'GET', path: '/tickets', auth: 'isAuth', tag, summary: 'Page through the tickets the caller may see, newest activity first',
      query: ticketListFilters.extend({ pageNumber: pagedQuery.shape.pageNumber }),
      handler: async ({ actor, query }) => app.listTickets.execute({ actor, ...ticketListInput(query), pageNumber: query.pageNumber }),
    }),
    route({
      method: 'GET', path: '/tickets/count', auth: 'isAuth', tag, summary: 'Count the tickets the list filters select', query: ticketListFilters,
      handler: async ({ actor, query }) => app.countTickets.execute({ actor, ...ticketListInput(query) }),
    }),
    route({
      method: 'GET', path: '/tickets/:ticketId', auth: 'isAuth', tag, summary: 'Show a ticket with its contact, connection and user', params: byId,
      handler: async ({ actor, params }) => app.showTicket.execute({ actor, ticketId: params.ticketId }),
    }),
    route({
      method: 'GET', path: '/tickets-log/:ticketId', auth: 'isAuth', tag, summary: 'A ticket\'s history, oldest first', params: byId,
      handler: async ({ actor, params }) => app.listTicketLogs.execute({ actor, ticketId: params.ticketId }),
    }),
    route({
      method: 'GET', path: '/ticketreport/reports', auth: 'isAuth', tag, summary: 'The admin\'s ticket report, with message counts',
      query: z.object({ dateFrom: day.optional(), dateTo: day.optional(), status: status.optional(), userId: id.optional(), pageNumber: pagedQuery.shape.pageNumber }),
      handler: async ({ actor, query }) => app.ticketReport.execute({ actor, ...query }),
    }),
    route({
      method: 'GET', path: '/tickets/u/:uuid', auth: 'isAuth', tag, summary: 'Show a ticket by its uuid',
      params: z.object({ uuid: z.string().min(1).max(64) }),
      handler: async ({ actor, params }) => app.showTicketByUuid.execute({ actor, uuid: params.uuid }),
    }),
    route({
      method: 'POST', path: '/tickets', auth: 'isAuth', tag, summary: 'Open a ticket with a contact (409 ERR_OTHER_OPEN_TICKET when one is active)', status: 201,
      body: z.object({
        contactId: id, connectionId: id.optional(), chatappId: id.optional(), status: z.enum(['open', 'pending']).optional(),
        userId: id.nullable().optional(), queueId: id.nullable().optional(),
      }),
      handler: async ({ actor, body }) => {
        const { chatappId, connectionId, ...rest } = body;
        return app.createTicket.execute({ actor, ...rest, connectionId: connectionId ?? chatappId });
      },
    }),
    route({
      method: 'PUT', path: '/tickets/:ticketId', auth: 'isAuth', tag, summary: 'Accept, transfer, return to the queue, reopen or close (farewell, rating) a ticket',
      params: byId,
      body: z.object({
        status: status.optional(), userId: id.nullable().optional(), queueId: id.nullable().optional(), rating: z.number().int().min(1).max(5).optional(),
        sendFarewellMessage: z.boolean().optional(),
      }),
      handler: async ({ actor, params, body }) => {
        const ticket = await app.updateTicket.execute({ actor, ticketId: params.ticketId, ...body });
        o.pokeOutbox();
        return ticket;
      },
    }),
    route({
      method: 'DELETE', path: '/tickets/:ticketId', auth: 'isAuth', tag, summary: 'Delete a ticket and its messages (admin)', params: byId,
      handler: async ({ actor, params }) => {
        await app.deleteTicket.execute({ actor, ticketId: params.ticketId });
        return { message: 'Ticket deleted' };
      },
    }),
    route({
      method: 'POST', path: '/tickets/closeAll', auth: 'isAuth', tag, summary: 'Close every active ticket the caller may change (optionally only pending or open)',
      body: z.object({ status: z.enum(['pending', 'open']).optional() }),
      handler: async ({ actor, body }) => app.closeAllTickets.execute({ actor, status: body.status }),
    }),
    route({
      method: 'POST', path: '/lgpd-response', auth: 'isAuth', tag, summary: 'Record a contact\'s answer to the LGPD consent prompt (refusal closes the ticket)',
      body: z.object({ ticketId: id, accepted: z.boolean() }),
      handler: async ({ actor, body }) => app.recordLgpdResponse.execute({ actor, ticketId: body.ticketId, accepted: body.accepted }),
    }),
  ];
}
