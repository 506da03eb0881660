import type { Users } from '../identity/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { TicketEvent } from './ticket-events.js';
import { NotFoundError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Ticket } from './ticket.js';
import type { Tickets } from './ports.js';
import { assertMayChange, visibleTicket } from './ticket-access.js';
import type { TicketDetails, TicketPresenter } from './ticket-details.js';
import { ticketState, type TicketJournal } from './ticket-journal.js';

const PAGE = 500;

interface Deps {
  tickets: Tickets;
  users: Users;
  journal: TicketJournal;
  presenter: TicketPresenter;
  tx: Transaction;
  clock: Clock;
  realtime: RealtimeEvents<TicketEvent>;
}

/**
 * Closes every active ticket the actor may change: all of the company's for admins, the
 * unassigned ones and their own for users; `status` narrows it to pending or open ones, or
 * (`group`) to the group conversations. No
 * farewell goes out (a bulk close is housekeeping, not a conversation's end). One `ticket`
 * event, action `closeMany`, names the closed ids.
 */
export class CloseAllTickets {
  constructor(private readonly deps: Deps) {}

  async execute(input: { readonly actor: Actor; readonly status?: 'pending' | 'open' | 'group' }): Promise<{ closed: number }> {
    const { tickets, journal, tx, clock, realtime } = this.deps;
    const { actor } = input;
    // `group` is the lineage's tab of group conversations: the active ones of any status.
    const status = input.status === 'group' ? undefined : input.status;
    const mine = (t: Ticket) =>
      t.status !== 'closed' &&
      (!status || t.status === status) &&
      (input.status !== 'group' || t.isGroup) &&
      (isAdmin(actor) || t.userId === null || t.userId === actor.userId);
    const candidates: number[] = [];
    for (const status of input.status && input.status !== 'group' ? [input.status] : (['pending', 'open'] as const)) {
      for (let offset = 0; ; offset += PAGE) {
        const page = await tickets.list({ companyId: actor.companyId, status, page: { offset, limit: PAGE } });
        for (const t of page.rows) if (mine(t)) candidates.push(t.id);
        if (page.rows.length < PAGE) break;
      }
    }
    const closed = await tx.run(async () => {
      const now = clock.now();
      const ids: number[] = [];
      for (const id of new Set(candidates)) {
        // Read again: someone may have taken or closed the ticket since the scan.
        const ticket = await tickets.findById(actor.companyId, id);
        if (!ticket || !mine(ticket)) continue;
        const next: Ticket = { ...ticket, status: 'closed', closedAt: now, updatedAt: now };
        await journal.save(next, 'close', actor.userId, { from: ticketState(ticket), to: ticketState(next), bulk: true, farewell: false });
        ids.push(id);
      }
      return ids.sort((a, b) => a - b);
    });
    if (closed.length) {
      await realtime.publish(actor.companyId, { entity: 'ticket', data: { action: 'closeMany', ticketIds: closed, status: 'closed' } });
    }
    return { closed: closed.length };
  }
}

/** Closes a ticket nobody should answer (spam, a stray group): no farewell, logged as `ignore`. */
export class IgnoreTicket {
  constructor(private readonly deps: Deps) {}

  async execute(input: { readonly actor: Actor; readonly ticketId: number }): Promise<TicketDetails> {
    return closeWithLog(this.deps, input.actor, input.ticketId, 'ignore', {});
  }
}

/**
 * Records a contact's answer to the LGPD consent prompt on their ticket. Refusing ends the
 * conversation: the ticket closes (without farewell), as in the lineage.
 */
export class RecordLgpdResponse {
  constructor(private readonly deps: Deps) {}

  async execute(input: { readonly actor: Actor; readonly ticketId: number; readonly accepted: boolean }): Promise<TicketDetails> {
    if (!input.accepted) return closeWithLog(this.deps, input.actor, input.ticketId, 'lgpd', { accepted: false });
    const { tickets, journal, tx, presenter } = this.deps;
    await visibleTicket(this.deps, input.actor, input.ticketId);
    const ticket = await tx.run(async () => {
      const current = await tickets.findById(input.actor.companyId, input.ticketId);
      if (!current) throw new NotFoundError('ERR_NO_TICKET_FOUND');
      await journal.log(current, 'lgpd', input.actor.userId, { accepted: true, closed: false });
      return current;
    });
    return presenter.one(ticket);
  }
}

async function closeWithLog(deps: Deps, actor: Actor, ticketId: number, type: 'ignore' | 'lgpd', payload: Record<string, unknown>): Promise<TicketDetails> {
  const { tickets, journal, tx, clock, presenter } = deps;
  await visibleTicket(deps, actor, ticketId);
  const { ticket, before, changed } = await tx.run(async () => {
    const current = await tickets.findById(actor.companyId, ticketId);
    if (!current) throw new NotFoundError('ERR_NO_TICKET_FOUND');
    if (current.status === 'closed') {
      if (type === 'lgpd') await journal.log(current, type, actor.userId, { ...payload, closed: false });
      return { ticket: current, before: current, changed: false };
    }
    assertMayChange(actor, current);
    const now = clock.now();
    const next: Ticket = { ...current, status: 'closed', closedAt: now, updatedAt: now };
    await journal.save(next, type, actor.userId, { ...payload, from: ticketState(current), to: ticketState(next), closed: true });
    return { ticket: next, before: current, changed: true };
  });
  return changed ? presenter.publish(ticket, 'update', before) : presenter.one(ticket);
}
