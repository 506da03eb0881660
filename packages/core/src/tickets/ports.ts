import type { Page, PageRequest } from '../shared/paging.js';
import type { NewTicket, Ticket, TicketStatus } from './ticket.js';
import type { NewTicketLog, TicketLog } from './ticket-log.js';

/** Every condition is optional and they all apply together (and). */
export interface TicketFilter {
  readonly companyId: number;
  readonly status?: TicketStatus;
  /** In the last message, or the contact's name or number; case- and accent-insensitive. */
  readonly search?: string;
  /** An operator's own scope: tickets that are pending, or assigned to this user. */
  readonly pendingOrAssignedTo?: number;
  /** With `pendingOrAssignedTo`: a pending ticket counts only without a queue or in one of these queues. */
  readonly pendingInQueues?: readonly number[];
  readonly userIds?: readonly number[];
  readonly queueIds?: readonly number[];
  readonly connectionId?: number;
  /** On any of these connections. */
  readonly connectionIds?: readonly number[];
  readonly withUnreadMessages?: boolean;
  readonly isGroup?: boolean;
  /** Created at or after `createdFrom` and strictly before `createdTo`. */
  readonly createdFrom?: Date;
  readonly createdTo?: Date;
  /** Last activity at or after `updatedFrom` and strictly before `updatedTo`. */
  readonly updatedFrom?: Date;
  readonly updatedTo?: Date;
  /** In any of these statuses (with `status` too, both apply). */
  readonly statuses?: readonly TicketStatus[];
  /** Carrying at least one of these tags. */
  readonly tagIds?: readonly number[];
  /** Carrying this tag (a kanban lane). */
  readonly hasTagId?: number;
  /** Carrying none of these tags (the kanban's untagged lane: none of the lanes). */
  readonly lacksTagIds?: readonly number[];
}

export interface TicketQuery extends TicketFilter {
  readonly page: PageRequest;
}

export interface Tickets {
  findById(companyId: number, id: number): Promise<Ticket | null>;
  findByUuid(companyId: number, uuid: string): Promise<Ticket | null>;
  /** The open or pending ticket of a contact on a connection (at most one exists). */
  findActive(companyId: number, contactId: number, connectionId: number): Promise<Ticket | null>;
  findLatestClosed(companyId: number, contactId: number, connectionId: number): Promise<Ticket | null>;
  /**
   * Returns the active ticket of the contact on the connection, or creates `draft`. Two callers
   * racing get the same ticket: the database keeps at most one active ticket per pair.
   */
  getOrCreateActive(draft: NewTicket): Promise<{ ticket: Ticket; created: boolean }>;
  /**
   * Saves every field. Making a ticket active while its contact already has another active
   * ticket on the connection throws ConflictError `ERR_OTHER_OPEN_TICKET` (the database decides).
   */
  update(ticket: Ticket): Promise<void>;
  /** Compare-and-set of `greetedAt`: true for exactly one caller per ticket. */
  markGreeted(ticketId: number, at: Date): Promise<boolean>;
  /** Newest activity first (`updatedAt`, then id, descending). */
  list(query: TicketQuery): Promise<Page<Ticket>>;
  count(filter: TicketFilter): Promise<number>;
  remove(companyId: number, id: number): Promise<void>;
}

/** The history of every ticket: who accepted, transferred, closed, reopened or deleted it, and when. */
export interface TicketLogs {
  add(log: NewTicketLog): Promise<TicketLog>;
  /** Oldest first (`createdAt`, then id). */
  listByTicket(companyId: number, ticketId: number): Promise<TicketLog[]>;
}
