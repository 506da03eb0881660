import { z } from 'zod';
import { tagSchema } from '../tags/tag-schemas.js';
import { ticketDetails } from './ticket-schemas.js';

/**
 * The ticket kanban (core's `TicketKanban`): kept apart from tag-schemas.ts because it embeds
 * tickets, whose schemas may themselves import the tag summaries.
 */

const LANE_TAG = {
  id: 7,
  companyId: 1,
  name: 'Waiting for customer',
  color: '#3b82f6',
  kanban: true,
  laneOrder: 0,
  createdAt: '2025-01-31T12:00:00.000Z',
  updatedAt: '2025-01-31T12:00:00.000Z',
};

export const kanbanLaneSchema = z
  .object({
    tag: tagSchema.nullable().meta({ description: "The lane's tag; null for the first lane, of the tickets in no lane" }),
    tickets: z.array(ticketDetails).meta({ description: "This page (20) of the lane's tickets, newest activity first" }),
    count: z.number().int().min(0).meta({ description: 'How many tickets the lane holds in all', example: 3 }),
    hasMore: z.boolean().meta({ description: 'Whether the lane has a next page', example: false }),
  })
  .meta({
    id: 'KanbanLane',
    description: "One column of the kanban: a lane tag's tickets, or (`tag: null`) the tickets in no lane",
    example: { tag: LANE_TAG, tickets: [], count: 0, hasMore: false },
  });

export const ticketKanbanSchema = z
  .object({
    tickets: z.array(ticketDetails).meta({
      description:
        "Every ticket of this page of the lanes, once, newest activity first: the lineage's kanban page reads this list and places each ticket by its `tags`",
    }),
    lanes: z.array(kanbanLaneSchema).meta({ description: 'The lane of tickets in no lane first, then one per kanban tag in lane order' }),
  })
  .meta({
    id: 'TicketKanban',
    description: 'The open and pending tickets the caller may see, by kanban lane',
    example: {
      tickets: [],
      lanes: [
        { tag: null, tickets: [], count: 0, hasMore: false },
        { tag: LANE_TAG, tickets: [], count: 0, hasMore: false },
      ],
    },
  });
