import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import type { Settings } from '../settings/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import { ticketFilter } from '../tickets/list-tickets.js';
import type { Tickets } from '../tickets/ports.js';
import type { TicketDetails, TicketPresenter } from '../tickets/ticket-details.js';
import { rangeFor } from './dashboard-scope.js';

/** The most tickets a panel shows (the newest activity first). */
export const MOMENTS_LIMIT = 1000;

export interface MomentsInput {
  readonly actor: Actor;
  /** One of the two active statuses; both when absent. */
  readonly status?: 'open' | 'pending';
  readonly queueIds?: readonly number[];
  /** Only this operator's tickets. */
  readonly userId?: number;
  /** Every ticket the actor may reach, not only the pending ones and their own. */
  readonly showAll?: boolean;
  /** Creation days on the company's clock, both included; none: any day. */
  readonly dateStart?: string;
  readonly dateEnd?: string;
}

/**
 * The attendance panel ("Painel de atendimentos", `GET /dashboard/moments` and `GET /usersMoments`):
 * the open and pending tickets of now, with their contact, connection, queue and operator, newest
 * activity first, as the ticket list's visibility rules allow (admins and `allTicket` users every
 * ticket with `showAll`; other operators the pending tickets of their queues and their own).
 */
export class ListMoments {
  constructor(private readonly deps: { tickets: Tickets; users: Users; queues: Queues; settings: Settings; clock: Clock; presenter: TicketPresenter }) {}

  async execute(input: MomentsInput): Promise<TicketDetails[]> {
    const { actor } = input;
    const queueIds = [...new Set(input.queueIds ?? [])];
    if (queueIds.length && (await this.deps.queues.findByIds(actor.companyId, queueIds)).length !== queueIds.length)
      throw new NotFoundError('ERR_QUEUE_NOT_FOUND');
    if (input.userId !== undefined && !(await this.deps.users.findById(actor.companyId, input.userId))) throw new NotFoundError('ERR_NO_USER_FOUND');
    const dated = input.dateStart || input.dateEnd;
    const range = dated ? await rangeFor(this.deps, actor.companyId, { dateFrom: input.dateStart, dateTo: input.dateEnd, days: 731 }) : null;
    const filter = await ticketFilter(this.deps.users, {
      actor,
      statusFilter: input.status ? [input.status] : ['open', 'pending'],
      showAll: input.showAll ?? false,
      ...(queueIds.length ? { queueIds } : {}),
      ...(input.userId !== undefined ? { userIds: [input.userId] } : {}),
    });
    const page = await this.deps.tickets.list({
      ...filter,
      ...(range ? { createdFrom: range.from, createdTo: range.to } : {}),
      page: { offset: 0, limit: MOMENTS_LIMIT },
    });
    return this.deps.presenter.many(actor.companyId, page.rows);
  }
}

/** `GET /usersMoments`: the same panel, every ticket for admins (the lineage forces `showAll` for them). */
export class ListUsersMoments {
  constructor(private readonly deps: { moments: ListMoments }) {}

  async execute(input: MomentsInput): Promise<TicketDetails[]> {
    return this.deps.moments.execute({ ...input, showAll: input.showAll ?? isAdmin(input.actor) });
  }
}
