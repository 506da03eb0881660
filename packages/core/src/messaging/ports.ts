import type { Page, PageRequest } from '../shared/paging.js';
import type { Connection, NewConnection } from './connection.js';
import type { Contact, Message, Ticket, TicketStatus } from './conversation.js';

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

export interface TicketQuery {
  readonly companyId: number;
  readonly status?: TicketStatus;
  readonly search?: string;
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
  update(ticket: Ticket): Promise<void>;
  /** Compare-and-set of `greetedAt`: true for exactly one caller per ticket. */
  markGreeted(ticketId: number, at: Date): Promise<boolean>;
  list(query: TicketQuery): Promise<Page<Ticket>>;
}

export interface Messages {
  findById(companyId: number, id: string): Promise<Message | null>;
  findByProviderId(connectionId: number, providerMessageId: string): Promise<Message | null>;
  add(message: Message): Promise<void>;
  /** Inserts unless the provider id is already stored for the connection; false for a duplicate. */
  addInbound(message: Message): Promise<boolean>;
  update(message: Message): Promise<void>;
  listByTicket(companyId: number, ticketId: number, page: PageRequest): Promise<Page<Message>>;
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
