import { assertAdmin, type Actor } from '../shared/actor.js';
import { ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { TicketStatus } from './ticket.js';
import { dayEnd, dayStart } from '../shared/days.js';
import type { Messages } from '../messages/ports.js';
import type { Tickets } from './ports.js';
import type { TicketPresenter } from './ticket-details.js';

export interface TicketReportInput {
  readonly actor: Actor;
  /** Creation days, `YYYY-MM-DD` in UTC, both inclusive. */
  readonly dateFrom?: string;
  readonly dateTo?: string;
  readonly status?: TicketStatus;
  /** In any of these statuses (the lineage's Reports page picks several); empty or absent: every status. */
  readonly statuses?: readonly TicketStatus[];
  readonly userId?: number;
  readonly pageNumber?: number;
}

export interface TicketReportRow {
  readonly id: number;
  readonly uuid: string;
  readonly contact: { id: number; name: string; number: string } | null;
  readonly chatapp: { id: number; name: string } | null;
  readonly status: TicketStatus;
  readonly user: { id: number; name: string } | null;
  readonly createdAt: string;
  readonly closedAt: string | null;
  /** How many messages the ticket holds (notes included). */
  readonly messages: number;
}

export interface TicketReportResult {
  readonly tickets: TicketReportRow[];
  readonly count: number;
  readonly hasMore: boolean;
  /** `count` again, where the lineage's Reports page reads it for its pagination. */
  readonly totalTickets: { readonly total: number };
}

/** The admin's ticket report: every ticket of the company in a creation range, 20 a page, newest activity first. */
export class TicketReport {
  constructor(private readonly deps: { tickets: Tickets; messages: Messages; presenter: TicketPresenter }) {}

  async execute(input: TicketReportInput): Promise<TicketReportResult> {
    assertAdmin(input.actor);
    const companyId = input.actor.companyId;
    const from = input.dateFrom === undefined ? undefined : dayStart(input.dateFrom);
    const to = input.dateTo === undefined ? undefined : dayEnd(input.dateTo);
    if (from && to && from >= to) throw new ValidationError('ERR_INVALID_DATE_RANGE');
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.tickets.list({
      companyId,
      page,
      ...(input.status ? { status: input.status } : {}),
      ...(input.statuses?.length ? { statuses: input.statuses } : {}),
      ...(input.userId ? { userIds: [input.userId] } : {}),
      ...(from ? { createdFrom: from } : {}),
      ...(to ? { createdTo: to } : {}),
    });
    const details = await this.deps.presenter.many(companyId, result.rows);
    const counts = await this.deps.messages.countByTickets(
      companyId,
      result.rows.map((t) => t.id),
    );
    const tickets = details.map((t) => ({
      id: t.id,
      uuid: t.uuid,
      status: t.status,
      createdAt: t.createdAt,
      closedAt: t.closedAt,
      chatapp: t.chatapp && { id: t.chatapp.id, name: t.chatapp.name },
      user: t.user,
      contact: t.contact && { id: t.contact.id, name: t.contact.name, number: t.contact.number },
      messages: counts.get(t.id) ?? 0,
    }));
    return { tickets, count: result.count, hasMore: hasMore(page, result.count), totalTickets: { total: result.count } };
  }
}
