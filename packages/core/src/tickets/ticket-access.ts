import type { Users } from '../identity/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError } from '../shared/errors.js';
import type { Ticket } from './ticket.js';
import type { Tickets } from './ports.js';

/**
 * What an operator may reach. Admins (and super users) reach every ticket of their company, and
 * so does a user whose `allTicket` is enabled; any other user reaches the tickets assigned to
 * them and the pending tickets waiting in one of their queues or in none (not yet routed), as in
 * the lineage.
 */
export interface TicketAccess {
  readonly actor: Actor;
  readonly seesAll: boolean;
  /** The queues whose pending tickets the actor sees (unused when `seesAll`). */
  readonly queueIds: readonly number[];
}

export async function ticketAccess(users: Users, actor: Actor): Promise<TicketAccess> {
  if (isAdmin(actor)) return { actor, seesAll: true, queueIds: [] };
  const user = await users.findById(actor.companyId, actor.userId);
  if (user?.allTicket === 'enable') return { actor, seesAll: true, queueIds: [] };
  return { actor, seesAll: false, queueIds: await users.queueIdsOf(actor.companyId, actor.userId) };
}

export function maySee(access: TicketAccess, ticket: Ticket): boolean {
  if (access.seesAll || ticket.userId === access.actor.userId) return true;
  return ticket.status === 'pending' && (ticket.queueId === null || access.queueIds.includes(ticket.queueId));
}

/**
 * Changing a ticket's hands or state (transfer, close, ignore) is open to admins; a user may
 * change only unassigned tickets and their own, even when `allTicket` lets them see the rest.
 */
export function assertMayChange(actor: Actor, ticket: Ticket): void {
  if (!isAdmin(actor) && ticket.userId !== null && ticket.userId !== actor.userId) throw new ForbiddenError('ERR_NO_PERMISSION');
}

/** The ticket of the actor's company (404 otherwise, also for another tenant's) that the actor may see (403 otherwise). */
export async function visibleTicket(deps: { tickets: Tickets; users: Users }, actor: Actor, ticketId: number): Promise<Ticket> {
  const ticket = await deps.tickets.findById(actor.companyId, ticketId);
  return seen(deps, actor, ticket);
}

export async function visibleTicketByUuid(deps: { tickets: Tickets; users: Users }, actor: Actor, uuid: string): Promise<Ticket> {
  const ticket = await deps.tickets.findByUuid(actor.companyId, uuid);
  return seen(deps, actor, ticket);
}

async function seen(deps: { users: Users }, actor: Actor, ticket: Ticket | null): Promise<Ticket> {
  if (!ticket) throw new NotFoundError('ERR_NO_TICKET_FOUND');
  if (!maySee(await ticketAccess(deps.users, actor), ticket)) throw new ForbiddenError('ERR_NO_PERMISSION');
  return ticket;
}
