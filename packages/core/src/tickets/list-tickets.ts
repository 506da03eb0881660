import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import { ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { TicketStatus } from './ticket.js';
import type { TicketFilter, Tickets } from './ports.js';
import { ticketAccess } from './ticket-access.js';
import type { TicketDetails, TicketPresenter } from './ticket-details.js';

export interface TicketListFilters {
  readonly actor: Actor;
  readonly searchParam?: string;
  readonly status?: TicketStatus;
  /** Every ticket the actor may reach, not only the pending ones and their own (admins and `allTicket` users). */
  readonly showAll?: boolean;
  readonly queueIds?: readonly number[];
  readonly userIds?: readonly number[];
  readonly connectionId?: number;
  readonly withUnreadMessages?: boolean;
  readonly isGroup?: boolean;
  /** Creation days, `YYYY-MM-DD` in UTC, both inclusive; `date` is one creation day. */
  readonly dateFrom?: string;
  readonly dateTo?: string;
  readonly date?: string;
  /** One day of last activity, `YYYY-MM-DD` in UTC. */
  readonly updatedAt?: string;
  /** Tickets carrying any of these tags. */
  readonly tagIds?: readonly number[];
}

export interface ListTicketsResult { readonly tickets: TicketDetails[]; readonly count: number; readonly hasMore: boolean; }

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The first instant of a UTC day; 422 for anything but a real `YYYY-MM-DD`. */
export function dayStart(day: string): Date {
  const m = DAY.exec(day);
  const date = m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))) : null;
  if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day) throw new ValidationError('ERR_INVALID_DATE');
  return date;
}

/** The first instant of the day after: the exclusive end of a range that includes `day`. */
export function dayEnd(day: string): Date {
  return new Date(dayStart(day).getTime() + 86_400_000);
}

const optional = <T>(value: string | undefined, f: (v: string) => T) => (value === undefined ? undefined : f(value));

/** The lineage's list filters as a repository filter, narrowed to what the actor may see. */
export async function ticketFilter(users: Users, input: TicketListFilters): Promise<TicketFilter> {
  const access = await ticketAccess(users, input.actor);
  const from = optional(input.date ?? input.dateFrom, dayStart);
  const to = optional(input.date ?? input.dateTo, dayEnd);
  if (from && to && from >= to) throw new ValidationError('ERR_INVALID_DATE_RANGE');
  return {
    companyId: input.actor.companyId,
    ...(input.status ? { status: input.status } : {}),
    ...(input.searchParam?.trim() ? { search: input.searchParam.trim() } : {}),
    ...(input.showAll && access.seesAll ? {} : { pendingOrAssignedTo: input.actor.userId, ...(access.seesAll ? {} : { pendingInQueues: access.queueIds }) }),
    ...(input.queueIds?.length ? { queueIds: input.queueIds } : {}),
    ...(input.userIds?.length ? { userIds: input.userIds } : {}),
    ...(input.connectionId ? { connectionId: input.connectionId } : {}),
    ...(input.withUnreadMessages ? { withUnreadMessages: true } : {}),
    ...(input.isGroup !== undefined ? { isGroup: input.isGroup } : {}),
    ...(from ? { createdFrom: from } : {}),
    ...(to ? { createdTo: to } : {}),
    ...(input.updatedAt ? { updatedFrom: dayStart(input.updatedAt), updatedTo: dayEnd(input.updatedAt) } : {}),
    ...(input.tagIds?.length ? { tagIds: input.tagIds } : {}),
  };
}

/**
 * The operator's ticket list, newest activity first, 20 a page. Without `showAll` (or without the
 * right to it) a user sees the pending tickets (of their queues or of none) and their own, as the
 * lineage's tabs do.
 */
export class ListTickets {
  constructor(private readonly deps: { tickets: Tickets; users: Users; presenter: TicketPresenter }) {}

  async execute(input: TicketListFilters & { readonly pageNumber?: number }): Promise<ListTicketsResult> {
    const filter = await ticketFilter(this.deps.users, input);
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.tickets.list({ ...filter, page });
    return { tickets: await this.deps.presenter.many(filter.companyId, result.rows), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

/** How many tickets the same filters as the list select. */
export class CountTickets {
  constructor(private readonly deps: { tickets: Tickets; users: Users }) {}

  async execute(input: TicketListFilters): Promise<{ count: number }> {
    return { count: await this.deps.tickets.count(await ticketFilter(this.deps.users, input)) };
  }
}
