import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery, paramDescription } from '../http/schemas.js';
import { TICKET_HIDDEN } from '../tags/tag-routes.js';
import { ticketKanbanSchema } from './kanban-schemas.js';
import { ticketListFilters, ticketListInput } from './ticket-routes.js';
import { ticketDetails } from './ticket-schemas.js';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected YYYY-MM-DD');

/**
 * The routes of the tags feature that answer tickets: a ticket's tags and lanes, and the kanban
 * board. They live with the tickets, whose schemas they answer, so that the tag routes need none.
 */
export function ticketTagRoutes(app: Pick<Application, 'tags'>) {
  const tag = 'Queues, tags, chatbots, campaigns';
  return [
    route({
      method: 'PUT',
      path: '/ticket-tags/:ticketId/:tagId',
      auth: 'isAuth',
      tag,
      summary: "Tag a ticket; with a lane's tag, move it to that lane (it leaves its other lanes)",
      params: z.object({
        ticketId: id.meta({ description: paramDescription('ticketId'), example: 314 }),
        tagId: z
          .union([id, z.literal('lane0')])
          .meta({ description: "The tag's id, or `lane0` to take the ticket out of every lane (the kanban's untagged first column)", example: 7 }),
      }),
      description:
        "Any operator who can see the ticket; tagging it again changes nothing. `lane0` (the lineage kanban's first column) " +
        'moves the ticket out of every lane. Answers the ticket with its tags now and emits a `ticket` event (action `update`).',
      response: ticketDetails,
      errors: [TICKET_HIDDEN, { status: 404, codes: ['ERR_NO_TICKET_FOUND', 'ERR_NO_TAG_FOUND'] }],
      handler: async ({ actor, params }) =>
        params.tagId === 'lane0'
          ? app.tags.untagTicket.execute({ actor, ticketId: params.ticketId, lanesOnly: true })
          : app.tags.tagTicket.execute({ actor, ticketId: params.ticketId, tagId: params.tagId }),
    }),
    route({
      method: 'DELETE',
      path: '/ticket-tags/:ticketId',
      auth: 'isAuth',
      tag,
      summary: 'Take every tag off a ticket (`lanesOnly=1`: only its lanes)',
      params: idParam('ticketId'),
      query: z.object({
        lanesOnly: formBoolean
          .optional()
          .meta({ description: '`1` or `true`: take off only the kanban lanes (the plain tags stay); absent, `0` or `false`: every tag' }),
      }),
      description: 'Any operator who can see the ticket. Answers the ticket with its tags now and emits a `ticket` event (action `update`).',
      response: ticketDetails,
      errors: [TICKET_HIDDEN, { status: 404, codes: ['ERR_NO_TICKET_FOUND'] }],
      handler: async ({ actor, params, query }) => app.tags.untagTicket.execute({ actor, ticketId: params.ticketId, lanesOnly: query.lanesOnly }),
    }),
    route({
      method: 'GET',
      path: '/ticket/kanban',
      auth: 'isAuth',
      tag: 'Tickets and messages',
      feature: 'kanban',
      summary: 'The open and pending tickets the caller may see, in one lane per kanban tag after the lane of tickets in none',
      query: ticketListFilters.omit({ status: true, statusFilter: true }).extend({
        status: z.enum(['open', 'pending']).optional().meta({ description: 'Only the `open` or only the `pending` tickets; absent: both' }),
        pageNumber: pagedQuery.shape.pageNumber,
        startDate: day.optional().meta({ description: "The lineage kanban page's name for `dateFrom`" }),
        endDate: day.optional().meta({ description: "The lineage kanban page's name for `dateTo`" }),
      }),
      description:
        'The filters of the ticket list (`searchParam`, queues, users, creation days `dateFrom`/`dateTo` or `startDate`/`endDate`...) ' +
        "apply to every lane; `pageNumber` is the same page (20) of each lane. A ticket in two lanes shows in both. `tickets` lists this page's " +
        'tickets once, for the lineage client.',
      response: ticketKanbanSchema,
      errors: [{ status: 422, codes: ['ERR_INVALID_DATE', 'ERR_INVALID_DATE_RANGE'] }],
      handler: async ({ actor, query }) => {
        const { pageNumber, status, startDate, endDate, ...filters } = query;
        const dates = { ...(startDate && !filters.dateFrom ? { dateFrom: startDate } : {}), ...(endDate && !filters.dateTo ? { dateTo: endDate } : {}) };
        return app.tags.ticketKanban.execute({ actor, ...ticketListInput({ ...filters, ...dates }), status, pageNumber });
      },
    }),
  ];
}
