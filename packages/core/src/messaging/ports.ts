import type { Page, PageRequest } from '../shared/paging.js';
import type { Connection, NewConnection } from './connection.js';
import type { Contact, DeliveryStatus, Message, NewContact, NewTicket, Ticket, TicketStatus } from './conversation.js';
import type { ContactIdentifier, IdentifierKind } from '../contacts/identifiers.js';
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

export interface ContactQuery {
  readonly companyId: number;
  /** In the name or e-mail (case- and accent-insensitive), or, when it is all digits and punctuation, in the number. */
  readonly search?: string;
  readonly page: PageRequest;
}

/** One validated row of an import: digits-only number, trimmed name, lower-case e-mail. */
export interface ContactImportRow {
  readonly name: string;
  readonly number: string;
  readonly email: string | null;
}

export interface ContactImportOutcome {
  readonly created: number;
  /** Rows that reached an existing contact (by number, ninth digit or not) and were merged into it. */
  readonly merged: number;
}

/**
 * A company's contacts and the identifiers that reach them. A person is resolved through their
 * identifiers: the phone identifier holds the canonical number (`canonicalPhone`), so a Brazilian
 * mobile with or without its ninth digit reaches one contact; a LID or page-scoped id linked to a
 * contact reaches it too. Groups have no identifiers and are found by their stored number.
 */
export interface Contacts {
  findById(companyId: number, id: number): Promise<Contact | null>;
  /** The contacts of the company among `ids`, in one read (missing ids are absent). */
  findByIds(companyId: number, ids: readonly number[]): Promise<Contact[]>;
  /** The contact the number reaches: its identifiers first, then a contact stored with exactly this number. */
  findByNumber(companyId: number, number: string): Promise<Contact | null>;
  /**
   * Returns the contact the number reaches (as `findByNumber`), creating it with its phone
   * identifier first if absent; safe under concurrency: racing callers, even with the two forms
   * of one Brazilian mobile, get one contact. An existing contact is returned unchanged.
   */
  getOrCreate(contact: NewContact): Promise<Contact>;
  /** A page of the company's contacts by name (folded), then id. */
  list(query: ContactQuery): Promise<Page<Contact>>;
  /** Creates the contact and its phone identifier; ConflictError `ERR_DUPLICATED_CONTACT` when the number already reaches one. */
  add(contact: NewContact): Promise<Contact>;
  /**
   * Saves every field; the phone identifier follows a changed number. ConflictError
   * `ERR_DUPLICATED_CONTACT` when the new number reaches another contact, `ERR_USER_ALREADY_LINKED`
   * when another contact is linked to the same user.
   */
  update(contact: Contact): Promise<void>;
  /** Removes the contact and its identifiers (the database also removes its tickets and their messages). */
  remove(companyId: number, id: number): Promise<void>;
  /** The contact's identifiers, phone first, then by kind and value. */
  identifiersOf(companyId: number, contactId: number): Promise<ContactIdentifier[]>;
  /** The contact an identifier (a phone one in canonical form) belongs to. */
  findByIdentifier(companyId: number, kind: IdentifierKind, value: string): Promise<Contact | null>;
  /** Links an identifier to the contact; linking it again changes nothing; another contact's throws ConflictError `ERR_IDENTIFIER_IN_USE`. */
  linkIdentifier(companyId: number, contactId: number, identifier: ContactIdentifier): Promise<void>;
  unlinkIdentifier(companyId: number, contactId: number, kind: IdentifierKind, value: string): Promise<void>;
  /**
   * One batch of an import, rows already validated and distinct by canonical number: a row whose
   * number reaches a contact is merged into it (an e-mail fills an empty one, a name replaces one
   * that is just the number), any other row creates a contact with its phone identifier.
   */
  importBatch(companyId: number, rows: readonly ContactImportRow[], at: Date): Promise<ContactImportOutcome>;
}

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

export interface MessageQuery {
  readonly companyId: number;
  readonly ticketId?: number;
  /** Sent by this operator. */
  readonly userId?: number;
  /** Only messages that carry a file. */
  readonly withMedia?: boolean;
  readonly page: PageRequest;
}

/** A delivery report about one message, found by our id or by the provider's id on a connection. */
export interface DeliveryChange {
  readonly companyId: number;
  readonly target: { readonly id: string } | { readonly connectionId: number; readonly providerMessageId: string };
  readonly status: DeliveryStatus;
  /** Stored only if the message has no provider id yet. */
  readonly providerMessageId?: string | null;
  readonly failureReason?: string | null;
  readonly at: Date;
}

export interface Messages {
  findById(companyId: number, id: string): Promise<Message | null>;
  findByProviderId(connectionId: number, providerMessageId: string): Promise<Message | null>;
  add(message: Message): Promise<void>;
  /** Inserts unless the provider id is already stored for the connection; false for a duplicate. */
  addInbound(message: Message): Promise<boolean>;
  update(message: Message): Promise<void>;
  /**
   * Moves a message's delivery status forward in one atomic step (see `advanceDelivery`): a
   * late or repeated report changes nothing. Also records the provider's id if none was stored
   * and, for `failed`, the reason. Returns the message as changed, or null when nothing changed
   * (unknown message, other company, or a status that is not a step forward).
   */
  advanceStatus(change: DeliveryChange): Promise<Message | null>;
  /**
   * Fails our sends still pending since before `before` (no channel runtime took them in time),
   * at most `limit`, oldest first, with the reason; answers the messages as changed.
   */
  failStaleSends(before: Date, reason: string, at: Date, limit: number): Promise<Message[]>;
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
