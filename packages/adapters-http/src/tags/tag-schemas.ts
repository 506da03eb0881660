import { z } from 'zod';

/**
 * The tag views as the API answers them (`TagView`, `TagSummary` and the tag pages of
 * packages/core/src/tags). Other features import `tagSummarySchema` where their views embed a
 * ticket's or a contact's tags. The kanban lanes, which embed tickets, are in tickets/kanban-schemas.ts.
 */

const tagId = z.number().int().positive().meta({ description: 'The tag id', example: 7 });
const tagName = z.string().min(1).max(60).meta({ description: 'Unique in the company, ignoring case', example: 'Billing' });
const tagColor = z
  .string()
  .regex(/^#[0-9a-f]{6}$/)
  .meta({ description: '`#rrggbb`, lower case', example: '#3b82f6' });
const tagKanban = z.boolean().meta({ description: 'Whether the tag is also a lane of the ticket kanban', example: true });

const TAG_EXAMPLE = {
  id: 7,
  companyId: 1,
  name: 'Billing',
  color: '#3b82f6',
  kanban: true,
  laneOrder: 2,
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-02-03T09:30:00.000Z',
};

/** What a ticket or a contact carries of each of its tags. */
export const tagSummarySchema = z
  .object({
    id: tagId,
    name: tagName,
    color: tagColor,
    kanban: tagKanban,
  })
  .meta({
    id: 'TagSummary',
    description: 'A tag as a ticket or a contact carries it',
    example: { id: 7, name: 'Billing', color: '#3b82f6', kanban: true },
  });

const tagFields = {
  id: tagId,
  companyId: z.number().int().positive().meta({ description: 'The owning company', example: 1 }),
  name: tagName,
  color: tagColor,
  kanban: tagKanban,
  laneOrder: z.number().int().min(0).max(100_000).meta({ description: "The lane's place in the kanban (0 first); 0 for plain tags unless set", example: 2 }),
  createdAt: z.iso.datetime().meta({ example: '2025-01-31T12:00:00.000Z' }),
  updatedAt: z.iso.datetime().meta({ example: '2025-02-03T09:30:00.000Z' }),
};

/** A tag of the company: a label for tickets and contacts, and a kanban lane when `kanban` is set. */
export const tagSchema = z.object(tagFields).meta({
  id: 'Tag',
  description: 'A tag of the company; with `kanban` set, also a lane of the ticket kanban',
  example: TAG_EXAMPLE,
});

export const tagListSchema = z.array(tagSchema).meta({
  id: 'TagList',
  description: 'Tags by name (case- and accent-folded), then id',
  example: [TAG_EXAMPLE],
});

export const tagWithCountSchema = z
  .object({
    ...tagFields,
    ticketCount: z.number().int().min(0).meta({ description: 'How many tickets carry the tag', example: 12 }),
  })
  .meta({
    id: 'TagWithTicketCount',
    description: 'A tag with how many tickets carry it',
    example: { ...TAG_EXAMPLE, ticketCount: 12 },
  });

export const tagPageSchema = z
  .object({
    tags: z.array(tagWithCountSchema),
    count: z.number().int().min(0).meta({ description: 'How many tags match in all', example: 1 }),
    hasMore: z.boolean().meta({ description: 'Whether a next page exists', example: false }),
  })
  .meta({
    id: 'TagPage',
    description: 'A page (20) of the tags found by name, each with its ticket count',
    example: { tags: [{ ...TAG_EXAMPLE, ticketCount: 12 }], count: 1, hasMore: false },
  });

export const kanbanLaneTagsSchema = z
  .object({
    lista: z.array(tagSchema).meta({ description: "The kanban tags in lane order, then id (`lista` is the lineage client's name)" }),
  })
  .meta({
    id: 'KanbanLaneTags',
    description: "The kanban lanes: the company's kanban tags in lane order",
    example: { lista: [TAG_EXAMPLE] },
  });

/** A contact's tags after a change. */
export const contactTagsSchema = z
  .object({
    contactId: z.number().int().positive().meta({ example: 42 }),
    tags: z.array(tagSummarySchema).meta({ description: "The contact's tags now, by name" }),
  })
  .meta({
    id: 'ContactTags',
    description: 'The tags a contact carries after the change',
    example: { contactId: 42, tags: [{ id: 7, name: 'Billing', color: '#3b82f6', kanban: true }] },
  });

/** A ticket's tags after a sync. */
export const ticketTagsSchema = z
  .object({
    ticketId: z.number().int().positive().meta({ example: 314 }),
    tags: z.array(tagSummarySchema).meta({ description: "The ticket's tags now, by name" }),
  })
  .meta({
    id: 'TicketTags',
    description: 'The tags a ticket carries after the change',
    example: { ticketId: 314, tags: [{ id: 7, name: 'Billing', color: '#3b82f6', kanban: true }] },
  });
