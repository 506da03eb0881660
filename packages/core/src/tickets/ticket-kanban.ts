import type { Users } from '../identity/ports.js';
import type { Ticket } from './ticket.js';
import { ticketFilter, type TicketListFilters } from './list-tickets.js';
import type { Tickets } from './ports.js';
import type { TicketDetails, TicketPresenter } from './ticket-details.js';
import { ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber, type Page } from '../shared/paging.js';
import type { Tags } from '../tags/ports.js';
import { toTagView, type TagView } from '../tags/tag.js';

export interface TicketKanbanInput extends Omit<TicketListFilters, 'status'> {
  /** One of the kanban's statuses; both when omitted. */
  readonly status?: 'open' | 'pending';
  /** The same page (20 tickets) of every lane. */
  readonly pageNumber?: number;
}

/** One column of the kanban: a lane tag's tickets, or (`tag: null`) the tickets in no lane. */
export interface KanbanLane {
  readonly tag: TagView | null;
  readonly tickets: TicketDetails[];
  readonly count: number;
  readonly hasMore: boolean;
}

/**
 * The ticket kanban: the open and pending tickets the caller may see (the rules and filters of
 * the ticket list), in one lane per kanban tag in lane order, after a first lane of the tickets
 * in no lane. A ticket carrying two lane tags shows in both lanes.
 */
export class TicketKanban {
  constructor(private readonly deps: { tickets: Tickets; users: Users; tags: Tags; presenter: TicketPresenter }) {}

  async execute(input: TicketKanbanInput): Promise<{ tickets: TicketDetails[]; lanes: KanbanLane[] }> {
    const { tickets, users, tags, presenter } = this.deps;
    if (input.status !== undefined && input.status !== 'open' && input.status !== 'pending') throw new ValidationError('ERR_KANBAN_STATUS');
    const filter = await ticketFilter(users, input);
    const base = filter.status ? filter : { ...filter, statuses: ['open', 'pending'] as const };
    const page = pageFromNumber(input.pageNumber);
    const lanes = await tags.lanes(filter.companyId);
    const laneIds = lanes.map((l) => l.id);
    const pages: Array<[TagView | null, Page<Ticket>]> = [[null, await tickets.list({ ...base, ...(laneIds.length ? { lacksTagIds: laneIds } : {}), page })]];
    for (const lane of lanes) pages.push([toTagView(lane), await tickets.list({ ...base, hasTagId: lane.id, page })]);
    const distinct = new Map(pages.flatMap(([, p]) => p.rows).map((t) => [t.id, t]));
    const details = new Map((await presenter.many(filter.companyId, [...distinct.values()])).map((d) => [d.id, d]));
    return {
      // The lineage's kanban page reads one list and sorts the tickets into lanes by their tags itself.
      tickets: [...details.values()].sort((a, b) => (a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : b.id - a.id)),
      lanes: pages.map(([tag, p]) => ({ tag, tickets: p.rows.map((t) => details.get(t.id)!), count: p.count, hasMore: hasMore(page, p.count) })),
    };
  }
}
