import type { Page, PageRequest } from '../shared/paging.js';
import type { DeliveryStatus } from '../connections/delivery-status.js';
import type { Message, MessageMedia } from './message.js';

export interface MessageQuery {
  readonly companyId: number;
  readonly ticketId?: number;
  /** Sent by this operator. */
  readonly userId?: number;
  /** Only messages that carry a file. */
  readonly withMedia?: boolean;
  readonly page: PageRequest;
}

/** Which messages a dashboard counter counts (`Messages.count`). */
export interface MessageCountFilter {
  readonly companyId: number;
  /** Ours (sent by an operator, a bot or the API) or the contacts'; absent: both. */
  readonly fromMe?: boolean;
  /** Created at or after `from` and strictly before `to`. */
  readonly from?: Date;
  readonly to?: Date;
  /** Only in the tickets now assigned to this operator. */
  readonly ticketUserId?: number;
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
   * Stores what a speech-to-text service heard in the message's audio, and nothing else (a delivery
   * report or an edit racing it keeps its own change). Returns the message as changed, or null when
   * it is not the company's (or is gone).
   */
  setTranscription(companyId: number, id: string, transcription: string, at: Date): Promise<Message | null>;
  /**
   * Settles a contact's file that is still `pending` (see `MessageMedia.status`): stored (`media`
   * without a status) or failed, and nothing else of the message changes. Returns the message as
   * changed, or null when it is not the company's, is gone, or its file is no longer pending
   * (settled already: a job run twice changes it once).
   */
  settleMedia(companyId: number, id: string, media: MessageMedia, at: Date): Promise<Message | null>;
  /**
   * Moves messages' delivery status forward, each change one atomic step (see `advanceDelivery`):
   * a late or repeated report changes nothing. Also records the provider's id if none was stored
   * and, for `failed`, the reason. A message's changes given by the same kind of target (our id, or
   * the provider's) apply in the order given; the end state is the same in any order. Answers, for
   * each change, the message as that change left it, or null when it changed nothing (unknown
   * message, other company, or a status that is not a step forward).
   */
  advanceStatuses(changes: readonly DeliveryChange[]): Promise<Array<Message | null>>;
  /**
   * Fails our sends still pending since before `before` (no channel runtime took them in time),
   * at most `limit`, oldest first, with the reason; answers the messages as changed.
   */
  failStaleSends(before: Date, reason: string, at: Date, limit: number): Promise<Message[]>;
  listByTicket(companyId: number, ticketId: number, page: PageRequest): Promise<Page<Message>>;
  /** Newest first (`createdAt`, then id, descending). */
  list(query: MessageQuery): Promise<Page<Message>>;
  /** How many messages match (notes included). */
  count(filter: MessageCountFilter): Promise<number>;
  /** How many messages each of the tickets holds; tickets without messages are absent. */
  countByTickets(companyId: number, ticketIds: readonly number[]): Promise<Map<number, number>>;
  removeByTicket(companyId: number, ticketId: number): Promise<void>;
}

/** What message views embed of a ticket and of a contact (see message-view.ts). */
export interface MessageContextRows {
  readonly tickets: ReadonlyArray<import('./message-view.js').MessageTicketRef>;
  readonly contacts: ReadonlyArray<import('./message-view.js').MessageContact>;
}

/**
 * The tickets (each with its queue) and the contacts of the company that message views embed,
 * read together: a database answers in one statement what the repositories answer in three.
 * Optional: without it `messageContexts` asks the repositories. Ids of another company are not found.
 */
export interface MessageContextReads {
  ticketsAndContacts(companyId: number, ticketIds: readonly number[], contactIds: readonly number[]): Promise<MessageContextRows>;
}
