import { assertCompanyActive } from '../identity/authenticate.js';
import type { Users } from '../identity/ports.js';
import type { Companies } from '../tenancy/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../shared/errors.js';
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

/** What the visibility rule reads of a ticket (all a realtime frame needs to carry to be filtered). */
export type TicketScope = Pick<Ticket, 'id' | 'queueId' | 'userId' | 'status'>;

export function ticketScope(ticket: TicketScope): TicketScope {
  return { id: ticket.id, queueId: ticket.queueId, userId: ticket.userId, status: ticket.status };
}

/** A connected operator as the realtime transport re-checks it: the token version that keeps its socket open, and what it may read. */
export interface RealtimeViewer {
  readonly tokenVersion: number;
  /** The user's name as stored now (what other operators see of it, e.g. as a ticket's viewer). */
  readonly name: string;
  readonly access: TicketAccess;
}

/**
 * The user behind `actor` as it is now (profile, `allTicket`, queues and token version from the
 * store, as `Authenticate` and `ticketAccess` read them for an HTTP request), or null when the
 * user is gone or its company was deactivated. A socket whose user is gone or whose token version moved on is closed.
 */
export async function realtimeViewer(deps: { users: Users; companies: Companies }, actor: Actor): Promise<RealtimeViewer | null> {
  const { users } = deps;
  const user = await users.findById(actor.companyId, actor.userId);
  if (!user) return null;
  try {
    await assertCompanyActive(deps.companies, user);
  } catch (err) {
    if (err instanceof UnauthorizedError) return null;
    throw err;
  }
  const current: Actor = { userId: user.id, companyId: user.companyId, profile: user.profile };
  if (isAdmin(current) || user.allTicket === 'enable')
    return { tokenVersion: user.tokenVersion, name: user.name, access: { actor: current, seesAll: true, queueIds: [] } };
  return {
    tokenVersion: user.tokenVersion,
    name: user.name,
    access: { actor: current, seesAll: false, queueIds: await users.queueIdsOf(user.companyId, user.id) },
  };
}

export function maySee(access: TicketAccess, ticket: TicketScope): boolean {
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
