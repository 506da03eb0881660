import type { Application, ErrorCode } from '@servicedesk/core';
import { z } from 'zod';
import { route, type RouteError } from '../http/route.js';
import { formBoolean, id, idParam, pagedQuery, paramDescription } from '../http/schemas.js';
import { deletedSchema } from '../company-api/company-api-schemas.js';
import { contactTagsSchema, kanbanLaneTagsSchema, tagListSchema, tagPageSchema, tagSchema, ticketTagsSchema } from './tag-schemas.js';

const TAG_FIELD_ERRORS: ErrorCode[] = ['ERR_INVALID_TAG_NAME', 'ERR_INVALID_TAG_COLOR', 'ERR_INVALID_LANE_ORDER'];
const ADMIN_ONLY: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'The caller is not an admin' };
export const TICKET_HIDDEN: RouteError = { status: 403, codes: ['ERR_NO_PERMISSION'], description: 'The ticket is not one the caller may see' };

/** The lineage sends the kanban flag as 0 or 1; booleans work too. */
const kanbanFlag = z.union([z.boolean(), z.literal(0), z.literal(1)]).transform((v) => v === true || v === 1);

/** `kanban=1` (or `true`) in a query: only lanes; `0` (or `false`): only plain tags. */
const kanbanQuery = formBoolean.optional().meta({ description: '`1` or `true`: only the kanban lanes; `0` or `false`: only the plain tags; absent: both' });

/** Types only: the use cases check names, colors and lane orders and answer with their own codes. */
const tagBody = z
  .object({
    name: z.string().max(200).meta({ description: 'Trimmed, 1 to 60 characters, unique in the company ignoring case', example: 'Billing' }),
    color: z.string().max(20).meta({ description: '`#rrggbb` in either case, stored lower case; on a new tag absent: `#808080`', example: '#3b82f6' }),
    kanban: kanbanFlag.meta({
      description: '`true`/`false` or `1`/`0`: the tag is also a lane of the ticket kanban; on a new tag absent: false',
      example: true,
    }),
    laneOrder: z.number().int().meta({
      description: "The lane's place in the kanban, 0 (first) to 100,000; absent when the tag becomes a lane: after the last lane (0 for a plain tag)",
      example: 2,
    }),
  })
  .partial();

/** `tags` as the lineage sends them (tag objects) or plain `tagIds`; one of the two. */
const syncBody = z
  .object({
    ticketId: id.optional().meta({ description: 'The ticket whose tags to set; give it or `contactId`, not both', example: 314 }),
    contactId: id.optional().meta({ description: 'The contact whose tags to set; give it or `ticketId`, not both', example: 42 }),
    tags: z
      .array(z.object({ id: id.meta({ description: "The tag's id", example: 7 }) }))
      .max(100)
      .optional()
      .meta({ description: 'The tags wanted, as tag objects (only `id` is read; the lineage client sends whole tags); `[]` removes every tag' }),
    tagIds: z
      .array(id)
      .max(100)
      .optional()
      .meta({ description: 'The ids of the tags wanted, instead of `tags` (taken over `tags` when both come); `[]` removes every tag', example: [7, 9] }),
  })
  .refine((b) => b.tags !== undefined || b.tagIds !== undefined, { message: 'expected tags or tagIds', path: ['tags'] })
  .meta({ example: { ticketId: 314, tagIds: [7, 9] } });

/**
 * Tags (read by every operator, written by admins), their links to tickets and contacts, and the
 * ticket kanban. Moving a ticket between lanes is `PUT /ticket-tags/:ticketId/:tagId` with the
 * lane's tag: the ticket leaves its other lanes. `DELETE /ticket-tags/:ticketId` takes every tag
 * off (only the lanes with `lanesOnly=1`: back to the untagged lane).
 */
export function tagRoutes(app: Pick<Application, 'tags'>) {
  const tag = 'Queues, tags, chatbots, campaigns';
  const byId = idParam('tagId');
  return [
    route({
      method: 'GET',
      path: '/tags/list',
      auth: 'isAuth',
      tag,
      summary: 'Every tag of the company by name (`kanban=1`: only lanes, `kanban=0`: only plain tags)',
      query: z.object({ kanban: kanbanQuery }),
      description: 'For the tag pickers: any user of the company may read them.',
      response: tagListSchema,
      handler: async ({ actor, query }) => app.tags.listAllTags.execute({ actor, kanban: query.kanban }),
    }),
    route({
      method: 'GET',
      path: '/tags',
      auth: 'isAuth',
      tag,
      summary: 'Page through the tags found by name, each with its ticket count',
      query: pagedQuery.extend({ kanban: kanbanQuery }),
      description:
        "A page (20) of the company's tags by name, found by `searchParam` in the name (ignoring case and accents); " +
        '`kanban` narrows to lanes or to plain tags. Any user of the company may read them.',
      response: tagPageSchema,
      handler: async ({ actor, query }) => app.tags.listTags.execute({ actor, ...query }),
    }),
    route({
      method: 'GET',
      path: '/tag/kanban',
      auth: 'isAuth',
      tag,
      feature: 'kanban',
      summary: 'The kanban lanes: kanban tags in lane order',
      description: "The company's kanban tags in lane order (then id), for drawing the board's columns, as `{lista}`.",
      response: kanbanLaneTagsSchema,
      handler: async ({ actor }) => app.tags.listKanbanLanes.execute({ actor }),
    }),
    route({
      method: 'POST',
      path: '/tags/sync',
      auth: 'isAuth',
      tag,
      summary: 'Replace the tags of a ticket or of a contact in one call',
      body: syncBody,
      description:
        'Makes the tags of the ticket (`ticketId`) or of the contact (`contactId`; exactly one of the two) exactly the ones given, ' +
        'in one transaction. Any operator may tag a ticket they can see and any contact of their company. A ticket change emits a ' +
        '`ticket` event (action `update`); a contact change a `tag` event (action `contact`) with the new set.',
      response: z.union([ticketTagsSchema, contactTagsSchema]).meta({ description: "The target's tags now: `ticketId` or `contactId` names it" }),
      errors: [
        TICKET_HIDDEN,
        { status: 404, codes: ['ERR_NO_TICKET_FOUND', 'ERR_NO_CONTACT_FOUND', 'ERR_NO_TAG_FOUND'] },
        { status: 422, codes: ['ERR_TAG_SYNC_NEEDS_ONE_TARGET', 'ERR_TOO_MANY_TAGS'] },
      ],
      handler: async ({ actor, body }) =>
        app.tags.syncTags.execute({
          actor,
          ticketId: body.ticketId,
          contactId: body.contactId,
          tagIds: body.tagIds ?? body.tags!.map((t) => t.id),
        }),
    }),
    route({
      method: 'GET',
      path: '/tags/:tagId',
      auth: 'isAuth',
      tag,
      summary: 'Show a tag',
      params: byId,
      description: 'One tag of the company; any user of the company may read it.',
      response: tagSchema,
      errors: [{ status: 404, codes: ['ERR_NO_TAG_FOUND'] }],
      handler: async ({ actor, params }) => app.tags.showTag.execute({ actor, tagId: params.tagId }),
    }),
    route({
      method: 'POST',
      path: '/tags',
      auth: 'isAuth',
      tag,
      summary: 'Create a tag or a kanban lane (admin; 409 for a name in use)',
      status: 201,
      body: tagBody.required({ name: true }).meta({ example: { name: 'Billing', color: '#3b82f6', kanban: true, laneOrder: 2 } }),
      description:
        'Admins only. The color defaults to `#808080`; a new lane without `laneOrder` goes after the last lane. ' + 'Emits a `tag` event (action `create`).',
      response: tagSchema,
      errors: [ADMIN_ONLY, { status: 409, codes: ['ERR_TAG_NAME_ALREADY_EXISTS'] }, { status: 422, codes: TAG_FIELD_ERRORS }],
      handler: async ({ actor, body }) => app.tags.createTag.execute({ actor, ...body }),
    }),
    route({
      method: 'PUT',
      path: '/tags/:tagId',
      auth: 'isAuth',
      tag,
      summary: 'Rename, recolor, (un)make a lane or reorder it (admin)',
      params: byId,
      body: tagBody.meta({ example: { name: 'Billing disputes', color: '#ef4444' } }),
      description:
        'Admins only; changes the fields given. A tag made a lane without `laneOrder` goes after the last lane. ' + 'Emits a `tag` event (action `update`).',
      response: tagSchema,
      errors: [
        ADMIN_ONLY,
        { status: 404, codes: ['ERR_NO_TAG_FOUND'] },
        { status: 409, codes: ['ERR_TAG_NAME_ALREADY_EXISTS'] },
        { status: 422, codes: TAG_FIELD_ERRORS },
      ],
      handler: async ({ actor, params, body }) => app.tags.updateTag.execute({ actor, tagId: params.tagId, ...body }),
    }),
    route({
      method: 'DELETE',
      path: '/tags/:tagId',
      auth: 'isAuth',
      tag,
      summary: 'Delete a tag; it leaves every ticket and contact (admin)',
      params: byId,
      description: 'Admins only. Emits a `tag` event (action `delete`, with the `tagId`).',
      response: deletedSchema,
      errors: [ADMIN_ONLY, { status: 404, codes: ['ERR_NO_TAG_FOUND'] }],
      handler: async ({ actor, params }) => {
        await app.tags.deleteTag.execute({ actor, tagId: params.tagId });
        return { message: 'Tag deleted' };
      },
    }),
    route({
      method: 'DELETE',
      path: '/tags-contacts/:tagId/:contactId',
      auth: 'isAuth',
      tag,
      summary: 'Take a tag off a contact',
      params: z.object({
        tagId: id.meta({ description: paramDescription('tagId'), example: 7 }),
        contactId: id.meta({ description: paramDescription('contactId'), example: 42 }),
      }),
      description: "Any user of the company. Answers the contact's remaining tags and emits a `tag` event (action `contact`) with them.",
      response: contactTagsSchema,
      errors: [{ status: 404, codes: ['ERR_NO_TAG_FOUND', 'ERR_NO_CONTACT_FOUND'] }],
      handler: async ({ actor, params }) => app.tags.untagContact.execute({ actor, tagId: params.tagId, contactId: params.contactId }),
    }),
  ];
}
