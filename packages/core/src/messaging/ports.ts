import type { Page, PageRequest } from '../shared/paging.js';
import type { Connection, NewConnection } from './connection.js';
import type { Contact, Message, Ticket, TicketStatus } from './conversation.js';
import type { NewTicketLog, TicketLog } from './ticket-log.js';

export interface Connections {
  findById(companyId: number | null, id: number): Promise<Connection | null>;
  findByTokenDigest(digest: string): Promise<Connection | null>;
  /** The social-network connection of a page or account id at the provider. */
  findByExternalId(externalId: string): Promise<Connection | null>;
  list(companyId: number): Promise<Connection[]>;
  countByCompany(companyId: number): Promise<number>;
  add(connection: NewConnection): Promise<Connection>;
  update(connection: Connection): Promise<void>;
  remove(companyId: number, id: number): Promise<void>;
}

export interface Contacts {
  findById(companyId: number, id: number): Promise<Contact | null>;
  findByNumber(companyId: number, number: string): Promise<Contact | null>;
  /** Returns the contact with this number, creating it first if absent; safe under concurrency. */
  getOrCreate(contact: Omit<Contact, 'id'>): Promise<Contact>;
}

/** Every condition is optional and they all apply together (and). */
export interface TicketFilter {
  readonly companyId: number;
  readonly status?: TicketStatus;
  /** In the last message, or the contact's name or number; case- and accent-insensitive. */
  readonly search?: string;
  /** An operator's own scope: tickets that are pending, or assigned to this user. */
  readonly pendingOrAssignedTo?: number;
  readonly userIds?: readonly number[];
  readonly queueIds?: readonly number[];
  readonly connectionId?: number;
  readonly withUnreadMessages?: boolean;
  readonly isGroup?: boolean;
  /** Created at or after `createdFrom` and strictly before `createdTo`. */
  readonly createdFrom?: Date;
  readonly createdTo?: Date;
  /** Last activity at or after `updatedFrom` and strictly before `updatedTo`. */
  readonly updatedFrom?: Date;
  readonly updatedTo?: Date;
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
  getOrCreateActive(draft: Omit<Ticket, 'id'>): Promise<{ ticket: Ticket; created: boolean }>;
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

export interface MessageQuery {
  readonly companyId: number;
  readonly ticketId?: number;
  /** Sent by this operator. */
  readonly userId?: number;
  /** Only messages that carry a file. */
  readonly withMedia?: boolean;
  readonly page: PageRequest;
}

export interface Messages {
  findById(companyId: number, id: string): Promise<Message | null>;
  findByProviderId(connectionId: number, providerMessageId: string): Promise<Message | null>;
  add(message: Message): Promise<void>;
  /** Inserts unless the provider id is already stored for the connection; false for a duplicate. */
  addInbound(message: Message): Promise<boolean>;
  update(message: Message): Promise<void>;
  listByTicket(companyId: number, ticketId: number, page: PageRequest): Promise<Page<Message>>;
  /** Newest first (`createdAt`, then id, descending). */
  list(query: MessageQuery): Promise<Page<Message>>;
  /** How many messages each of the tickets holds; tickets without messages are absent. */
  countByTickets(companyId: number, ticketIds: readonly number[]): Promise<Map<number, number>>;
  removeByTicket(companyId: number, ticketId: number): Promise<void>;
}

/** The history of every ticket: who accepted, transferred, closed, reopened or deleted it, and when. */
export interface TicketLogs {
  add(log: NewTicketLog): Promise<TicketLog>;
  /** Oldest first (`createdAt`, then id). */
  listByTicket(companyId: number, ticketId: number): Promise<TicketLog[]>;
}

/** A command or event waiting in the outbox, written in the transaction of the change that caused it. */
export interface OutboxEntry {
  /** Also the broker's deduplication id. */
  readonly id: string;
  readonly subject: string;
  readonly payload: unknown;
  readonly createdAt: Date;
}

export interface Outbox {
  add(entry: OutboxEntry): Promise<void>;
  /** Oldest unpublished entries first. */
  pending(limit: number): Promise<OutboxEntry[]>;
  markPublished(ids: readonly string[], at: Date): Promise<void>;
}
