import type { Clock } from '../shared/ports.js';
import type { Ticket } from './ticket.js';
import type { TicketLogs, Tickets } from './ports.js';
import type { TicketLogType } from './ticket-log.js';

/** The state of a ticket a log entry compares: who holds it, where, and in which status. */
export function ticketState(t: Ticket) {
  return { status: t.status, userId: t.userId, queueId: t.queueId };
}

/**
 * Saves a ticket change together with its history entry. Call it inside the caller's
 * transaction, so that the change and its log are written together or not at all.
 */
export class TicketJournal {
  constructor(private readonly deps: { tickets: Tickets; ticketLogs: TicketLogs; clock: Clock }) {}

  async save(ticket: Ticket, type: TicketLogType, userId: number | null, payload: Record<string, unknown> = {}): Promise<void> {
    await this.deps.tickets.update(ticket);
    await this.log(ticket, type, userId, payload);
  }

  async log(ticket: Pick<Ticket, 'id' | 'companyId'>, type: TicketLogType, userId: number | null, payload: Record<string, unknown> = {}): Promise<void> {
    await this.deps.ticketLogs.add({ companyId: ticket.companyId, ticketId: ticket.id, userId, type, payload, createdAt: this.deps.clock.now() });
  }
}
