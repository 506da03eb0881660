import type { Application } from '@servicedesk/core';
import { z } from 'zod';
import { route } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery } from '../http/schemas.js';
import { ticketListFilters, ticketListInput } from './ticket-routes.js';

/** The lineage sends the kanban flag as 0 or 1; booleans work too. */
const kanbanFlag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);

/** Types only: the use cases check names, colors and lane orders and answer with their own codes. */
const tagBody = z.object({
  name: z.string().max(200),
  color: z.string().max(20),
  kanban: kanbanFlag,
  laneOrder: z.number().int(),
}).partial();

/** `tags` as the lineage sends them (tag objects) or plain `tagIds`; one of the two. */
const syncBody = z.object({
  ticketId: id.optional(),
  contactId: id.optional(),
  tags: z.array(z.object({ id })).max(100).optional(),
  tagIds: z.array(id).max(100).optional(),
}).refine((b) => b.tags !== undefined || b.tagIds !== undefined, { message: 'expected tags or tagIds', path: ['tags'] });

/**
 * Tags (read by every operator, written by admins), their links to tickets and contacts, and the
 * ticket kanban. Moving a ticket between lanes is `PUT /ticket-tags/:ticketId/:tagId` with the
 * lane's tag: the ticket leaves its other lanes. `DELETE /ticket-tags/:ticketId` takes every tag
 * off (only the lanes with `lanesOnly=1`: back to the untagged lane).
 */
export function tagRoutes(app: Application) {
  const tag = 'Queues, tags, chatbots, campaigns';
  const byId = idParam('tagId');
  return [
    route({
      method: 'GET', path: '/tags/list', auth: 'isAuth', tag, summary: 'Every tag of the company by name (`kanban=1`: only lanes, `kanban=0`: only plain tags)',
      query: z.object({ kanban: formBoolean.optional() }),
      handler: async ({ actor, query }) => app.listAllTags.execute({ actor, kanban: query.kanban }),
    }),
    route({
      method: 'GET', path: '/tags', auth: 'isAuth', tag, summary: 'Page through the tags found by name, each with its ticket count',
      query: pagedQuery.extend({ kanban: formBoolean.optional() }),
      handler: async ({ actor, query }) => app.listTags.execute({ actor, ...query }),
    }),
    route({
      method: 'GET', path: '/tag/kanban', auth: 'isAuth', tag, feature: 'kanban', summary: 'The kanban lanes: kanban tags in lane order',
      handler: async ({ actor }) => app.listKanbanLanes.execute({ actor }),
    }),
    route({
      method: 'POST', path: '/tags/sync', auth: 'isAuth', tag, summary: 'Replace the tags of a ticket or of a contact in one call',
      body: syncBody,
      handler: async ({ actor, body }) => app.syncTags.execute({
        actor, ticketId: body.ticketId, contactId: body.contactId, tagIds: body.tagIds ?? body.tags!.map((t) => t.id),
      }),
    }),
    route({
      method: 'GET', path: '/tags/:tagId', auth: 'isAuth', tag, summary: 'Show a tag', params: byId,
      handler: async ({ actor, params }) => app.showTag.execute({ actor, tagId: params.tagId }),
    }),
    route({
      method: 'POST', path: '/tags', auth: 'isAuth', tag, summary: 'Create a tag or a kanban lane (admin; 409 for a name in use)', status: 201,
      body: tagBody.required({ name: true }),
      handler: async ({ actor, body }) => app.createTag.execute({ actor, ...body }),
    }),
    route({
      method: 'PUT', path: '/tags/:tagId', auth: 'isAuth', tag, summary: 'Rename, recolor, (un)make a lane or reorder it (admin)', params: byId, body: tagBody,
      handler: async ({ actor, params, body }) => app.updateTag.execute({ actor, tagId: params.tagId, ...body }),
    }),
    route({
      method: 'DELETE', path: '/tags/:tagId', auth: 'isAuth', tag, summary: 'Delete a tag; it leaves every ticket and contact (admin)', params: byId,
      handler: async ({ actor, params }) => {
        await app.deleteTag.execute({ actor, tagId: params.tagId });
        return { message: 'Tag deleted' };
      },
    }),
    route({
      method: 'DELETE', path: '/tags-contacts/:tagId/:contactId', auth: 'isAuth', tag, summary: 'Take a tag off a contact',
      params: z.object({ tagId: id, contactId: id }),
      handler: async ({ actor, params }) => app.untagContact.execute({ actor, tagId: params.tagId, contactId: params.contactId }),
    }),
    route({
      method: 'PUT', path: '/ticket-tags/:ticketId/:tagId', auth: 'isAuth', tag,
      summary: 'Tag a ticket; with a lane\'s tag, move it to that lane (it leaves its other lanes)',
      params: z.object({ ticketId: id, tagId: id }),
      handler: async ({ actor, params }) => app.tagTicket.execute({ actor, ticketId: params.ticketId, tagId: params.tagId }),
    }),
    route({
      method: 'DELETE', path: '/ticket-tags/:ticketId', auth: 'isAuth', tag, summary: 'Take every tag off a ticket (`lanesOnly=1`: only its lanes)',
      params: idParam('ticketId'), query: z.object({ lanesOnly: formBoolean.optional() }),
      handler: async ({ actor, params, query }) => app.untagTicket.execute({ actor, ticketId: params.ticketId, lanesOnly: query.lanesOnly }),
    }),
    route({
      method: 'GET', path: '/ticket/kanban', auth: 'isAuth', tag: 'Tickets and messages', feature: 'kanban',
      summary: 'The open and pending tickets the caller may see, in one lane per kanban tag after the lane of tickets in none',
      query: ticketListFilters.omit({ status: true }).extend({ status: z.enum(['open', 'pending']).optional(), pageNumber: pagedQuery.shape.pageNumber }),
      handler: async ({ actor, query }) => {
        const { pageNumber, status, ...filters } = query;
        return app.ticketKanban.execute({ actor, ...ticketListInput(filters), status, pageNumber });
      },
    }),
  ];
}
