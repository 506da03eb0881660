import type { Clock } from '../shared/ports.js';
import type { Ticket } from './ticket.js';
import type { TicketLogs, Tickets } from './ports.js';
import type { TicketLogType } from './ticket-log.js';
import { changeOf, cycleOf, type TicketTracking } from './ticket-tracking.js';

/** The state of a ticket a log entry compares: who holds it, where, and in which status. */
export function ticketState(t: Ticket) {
  return { status: t.status, userId: t.userId, queueId: t.queueId };
}

export type TicketState = ReturnType<typeof ticketState>;

const isState = (v: unknown): v is TicketState => typeof v === 'object' && v !== null && 'status' in v && 'userId' in v && 'queueId' in v;

/**
 * Saves a ticket change together with its history entry and its attendance cycle (the figures of
 * the dashboards). Call it inside the caller's transaction, so that the change, its log and its
 * cycle are written together or not at all.
 */
export class TicketJournal {
  constructor(private readonly deps: { tickets: Tickets; ticketLogs: TicketLogs; tracking: TicketTracking; clock: Clock }) {}

  /** `payload.from` is the state before the change (`ticketState`); a close may carry the contact's `rating`. */
  async save(ticket: Ticket, type: TicketLogType, userId: number | null, payload: Record<string, unknown> = {}): Promise<void> {
    await this.deps.tickets.update(ticket);
    await this.log(ticket, type, userId, payload);
    const at = this.deps.clock.now();
    // A closed ticket an operator brings back starts a new cycle, one we started.
    if (type === 'reopen') return this.deps.tracking.open(cycleOf(ticket, at, { outbound: true, reopened: true }));
    const before = isState(payload.from) ? payload.from : { status: ticket.status, userId: null, queueId: null };
    const rating = typeof payload.rating === 'number' ? payload.rating : undefined;
    const change = changeOf(before, ticket, at, rating);
    if (change) await this.deps.tracking.change(ticket.companyId, ticket.id, change);
  }

  /** A ticket an operator created (from the panel, or by forwarding a message to a new contact): logged, and its cycle opened. */
  async created(ticket: Ticket, userId: number | null, payload: Record<string, unknown> = {}): Promise<void> {
    await this.log(ticket, 'create', userId, payload);
    await this.deps.tracking.open(cycleOf(ticket, this.deps.clock.now(), { outbound: true, reopened: false }));
  }

  /** An operator sent a message on the ticket: its open cycle's first response, unless it has one. */
  async responded(ticket: Pick<Ticket, 'id' | 'companyId'>): Promise<void> {
    await this.deps.tracking.responded(ticket.companyId, ticket.id, this.deps.clock.now());
  }

  async log(ticket: Pick<Ticket, 'id' | 'companyId'>, type: TicketLogType, userId: number | null, payload: Record<string, unknown> = {}): Promise<void> {
    await this.deps.ticketLogs.add({ companyId: ticket.companyId, ticketId: ticket.id, userId, type, payload, createdAt: this.deps.clock.now() });
  }
}
