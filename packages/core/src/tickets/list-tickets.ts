import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import { ValidationError } from '../shared/errors.js';
import { dayEnd, dayStart } from '../shared/days.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { TicketStatus } from './ticket.js';
import type { TicketFilter, Tickets } from './ports.js';
import { ticketAccess } from './ticket-access.js';
import type { TicketDetails, TicketPresenter } from './ticket-details.js';

/**
 * The lineage's list tabs: a ticket status, `search` (every status: the search tab) or `group`
 * (the group conversations that are still active).
 */
export type TicketListStatus = TicketStatus | 'search' | 'group';

export interface TicketListFilters {
  readonly actor: Actor;
  readonly searchParam?: string;
  readonly status?: TicketListStatus;
  /** The search tab's status choices: tickets in any of them (`group`: the active group conversations, when chosen alone). */
  readonly statusFilter?: readonly TicketListStatus[];
  /** Every ticket the actor may reach, not only the pending ones and their own (admins and `allTicket` users). */
  readonly showAll?: boolean;
  readonly queueIds?: readonly number[];
  readonly userIds?: readonly number[];
  /** On this connection. */
  readonly chatappId?: number;
  /** On any of these connections. */
  readonly chatappIds?: readonly number[];
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

export interface ListTicketsResult {
  readonly tickets: TicketDetails[];
  readonly count: number;
  readonly hasMore: boolean;
}

const optional = <T>(value: string | undefined, f: (v: string) => T) => (value === undefined ? undefined : f(value));

const ACTIVE: readonly TicketStatus[] = ['open', 'pending'];

/** A tab (`status`) and the search tab's choices (`statusFilter`) as repository conditions. */
function statusConditions(
  status: TicketListStatus | undefined,
  choices: readonly TicketListStatus[] | undefined,
): Pick<TicketFilter, 'status' | 'statuses' | 'isGroup'> {
  if (status === 'group') return { statuses: ACTIVE, isGroup: true };
  const plain = (choices ?? []).filter((c): c is TicketStatus => c !== 'group' && c !== 'search');
  const choice = plain.length ? { statuses: [...new Set(plain)] } : choices?.includes('group') ? { statuses: ACTIVE, isGroup: true } : {};
  if (status && status !== 'search') return { status, ...choice };
  return choice;
}

/** The lineage's list filters as a repository filter, narrowed to what the actor may see. */
export async function ticketFilter(users: Users, input: TicketListFilters): Promise<TicketFilter> {
  const access = await ticketAccess(users, input.actor);
  const from = optional(input.date ?? input.dateFrom, dayStart);
  const to = optional(input.date ?? input.dateTo, dayEnd);
  if (from && to && from >= to) throw new ValidationError('ERR_INVALID_DATE_RANGE');
  return {
    companyId: input.actor.companyId,
    ...statusConditions(input.status, input.statusFilter),
    ...(input.searchParam?.trim() ? { search: input.searchParam.trim() } : {}),
    ...(input.showAll && access.seesAll ? {} : { pendingOrAssignedTo: input.actor.userId, ...(access.seesAll ? {} : { pendingInQueues: access.queueIds }) }),
    ...(input.queueIds?.length ? { queueIds: input.queueIds } : {}),
    ...(input.userIds?.length ? { userIds: input.userIds } : {}),
    ...(input.chatappId ? { connectionId: input.chatappId } : {}),
    ...(input.chatappIds?.length ? { connectionIds: input.chatappIds } : {}),
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
