import type { Ticket } from './ticket.js';

/**
 * One attendance cycle of a ticket: from the moment it was created or reopened to the moment it
 * closed. The dashboards' figures (wait, first response, handling and resolution times, per user
 * and queue) are computed from cycles, which are written as the ticket changes, in the change's
 * own transaction (see `TicketTracking`).
 */
export interface TicketCycle {
  id: number;
  companyId: number;
  ticketId: number;
  contactId: number;
  connectionId: number;
  /** Where the ticket is (or was when the cycle closed) and who holds (held) it. */
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
  /** We started it (an operator opened or reopened the ticket, a send created it), not the contact. */
  outbound: boolean;
  /** A closed ticket that came back, rather than a new ticket. */
  reopened: boolean;
  /** The contact's first cycle ever: a lead. */
  firstContact: boolean;
  startedAt: Date;
  /** The first time an operator took the ticket. */
  acceptedAt: Date | null;
  /** The first message an operator sent in this cycle. */
  firstResponseAt: Date | null;
  closedAt: Date | null;
  /** The contact's rating given at the close, 1 to 5. */
  rating: number | null;
  /** Moves to another operator or queue after it started. */
  transfers: number;
  /** The last change; the figures of the days whose cycles changed are computed again. */
  updatedAt: Date;
}

/** A cycle to open: `firstContact` is the store's to decide, `transfers` start at 0. */
export type NewTicketCycle = Omit<TicketCycle, 'id' | 'firstContact' | 'transfers' | 'updatedAt'>;

/** What happened to a ticket's open cycle. */
export interface TicketCycleChange {
  /** The ticket's place after the change. */
  readonly queueId: number | null;
  readonly userId: number | null;
  readonly at: Date;
  /** An operator took it (sets `acceptedAt` once). */
  readonly accepted?: boolean;
  /** It moved to another operator or queue. */
  readonly transferred?: boolean;
  /** It closed (with the contact's rating, when one was given). */
  readonly closed?: boolean;
  readonly rating?: number;
}

/**
 * Where attendance cycles are written. Each call is one statement, made inside the transaction
 * of the ticket change it records, so a figure never counts a change that rolled back.
 */
export interface TicketTracking {
  /** Opens a cycle unless the ticket already has an open one (two openers racing get one cycle). */
  open(cycle: NewTicketCycle): Promise<void>;
  /** Applies a change to the ticket's open cycle; a ticket without one is left alone. */
  change(companyId: number, ticketId: number, change: TicketCycleChange): Promise<void>;
  /** An operator sent a message: the open cycle's first response, unless it has one. */
  responded(companyId: number, ticketId: number, at: Date): Promise<void>;
}

/** The cycle a ticket starts now (created or reopened, in the state it is in after the change). */
export function cycleOf(ticket: Ticket, at: Date, how: { readonly outbound: boolean; readonly reopened: boolean }): NewTicketCycle {
  const held = ticket.status === 'open' && ticket.userId !== null;
  return {
    companyId: ticket.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    connectionId: ticket.connectionId,
    queueId: ticket.queueId,
    userId: ticket.userId,
    isGroup: ticket.isGroup,
    outbound: how.outbound,
    reopened: how.reopened,
    startedAt: at,
    acceptedAt: held ? at : null,
    firstResponseAt: null,
    closedAt: ticket.status === 'closed' ? at : null,
    rating: null,
  };
}

/**
 * The change of a ticket's cycle from its state before and after: taken by an operator (open with
 * a user), moved (another operator or queue while someone or a queue had it), closed.
 */
export function changeOf(before: Pick<Ticket, 'status' | 'userId' | 'queueId'>, after: Ticket, at: Date, rating?: number): TicketCycleChange | null {
  const moved = before.userId !== after.userId || before.queueId !== after.queueId;
  const closed = after.status === 'closed' && before.status !== 'closed';
  const accepted = after.status === 'open' && after.userId !== null && (before.status !== 'open' || before.userId !== after.userId);
  if (!moved && !closed && !accepted) return null;
  // Taking an unassigned ticket is accepting it, not a transfer; handing it from one holder to another is.
  const transferred =
    moved &&
    !closed &&
    (before.userId !== null || before.queueId !== null) &&
    !(before.userId === null && after.userId !== null && before.queueId === after.queueId);
  return {
    queueId: after.queueId,
    userId: after.userId,
    at,
    ...(accepted ? { accepted: true } : {}),
    ...(transferred ? { transferred: true } : {}),
    ...(closed ? { closed: true } : {}),
    ...(closed && rating !== undefined ? { rating } : {}),
  };
}
