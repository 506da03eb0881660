/**
 * What happened to a ticket. `pending` is a return to the queue, `lgpd` a contact's answer to the
 * consent prompt; the payload carries the details (from/to state, rating, bulk close).
 */
export const TICKET_LOG_TYPES = ['create', 'accept', 'transfer', 'pending', 'close', 'reopen', 'ignore', 'lgpd', 'delete'] as const;
export type TicketLogType = (typeof TICKET_LOG_TYPES)[number];

/** One entry of a ticket's history, written in the transaction of the change it records. */
export interface TicketLog {
  id: number;
  companyId: number;
  /** Kept after the ticket is deleted, so the `delete` entry outlives it. */
  ticketId: number;
  /** Who did it; null for the system (or a user since deleted). */
  userId: number | null;
  type: TicketLogType;
  payload: Record<string, unknown>;
  createdAt: Date;
}

export type NewTicketLog = Omit<TicketLog, 'id'>;
