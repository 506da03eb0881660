import type { Actor } from '../shared/actor.js';
import { ConflictError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { uploadDigest, type UploadedFile } from '../uploads/image-upload.js';
import type { Message, MessageMedia } from '../messages/message.js';
import type { Ticket } from '../tickets/ticket.js';
import type { MessageView } from '../messages/message-view.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { Contact } from '../contacts/contact.js';
import type { Connection } from '../connections/connection.js';
import { assertMayChange } from '../tickets/ticket-access.js';
import type { TicketDetails } from '../tickets/ticket-details.js';
import type { SendingRules } from './sending-rules.js';
import type { TemplateSend } from '../connections/channel-messages.js';
import { requestFingerprint } from './idempotency-keys.js';
import type { Idempotency, IdempotentSends } from './idempotent-sends.js';
import type { ConversationLookup } from './conversation-lookup.js';
import type { MediaStore } from './media-store.js';
import type { OperatorReplies } from './operator-replies.js';

export const MAX_TICKET_MEDIA_BYTES = 16 * 1024 * 1024;
export const MAX_MESSAGE_LENGTH = 65_536;

export interface SendTicketMessageInput {
  readonly actor: Actor;
  readonly ticketId: number;
  readonly body: string;
  /** Our id of a message of the same conversation this one replies to. */
  readonly quotedMsgId?: string | null;
  /** A note for the operators only: stored, never sent. */
  readonly isPrivate?: boolean;
  readonly medias?: readonly UploadedFile[];
  /**
   * Messages whose files are already in blob storage (a product's images), each with its caption,
   * sent in order instead of `body` and `medias`; one without media is a text.
   */
  readonly attachments?: readonly { readonly caption: string; readonly media: MessageMedia | null }[];
  /** A bizchat template the connector sends, `body` being its rendered text (allowed outside the 24-hour window). */
  readonly template?: TemplateSend;
  /**
   * A retried request with the same key answers the first result and sends nothing again (for the
   * key's time to live). Keys are stored per connection (the ticket's), shared with the message
   * API's: the same key with another request (another text, quote, note flag or file, another
   * ticket or another user) is refused with `ERR_IDEMPOTENCY_KEY_REUSED`.
   */
  readonly idempotencyKey?: string;
}

export interface SendTicketMessageResult {
  readonly messages: MessageView[];
  readonly ticket: TicketDetails;
}

/**
 * An operator writes in a conversation: text, files (one message each, the text on the first),
 * a quoted reply, or a private note. A send goes through the outbox (committed with the message)
 * and takes a pending ticket: it becomes `open` and the sender's. A note is stored as `sent`, a
 * terminal status (no provider will ever acknowledge it), writes no command and leaves the
 * ticket as it is; notes may be added to closed tickets, sends may not (`ERR_TICKET_CLOSED`).
 * Users reply only on unassigned tickets and their own (any operator who sees a ticket may add notes).
 */
export class SendTicketMessage {
  constructor(
    private readonly deps: {
      /** The ticket the actor sees, its connection, contact and the quoted message, loaded and checked. */
      conversations: ConversationLookup;
      /** Notes and sends written into the ticket, and the reply's effect on it. */
      replies: OperatorReplies;
      /** Tells the operators of the ticket and its new messages. */
      announcer: ConversationAnnouncer;
      /** Where the uploaded files are stored. */
      media: MediaStore;
      tx: Transaction;
      clock: Clock;
      /** The company's suspension and the contact's service window. */
      rules: SendingRules;
      /** The `Idempotency-Key` protocol (its cache marks and stored answers). */
      idempotent: IdempotentSends;
    },
  ) {}

  async execute(input: SendTicketMessageInput): Promise<SendTicketMessageResult> {
    const { actor } = input;
    const files = input.medias ?? [];
    const attachments = input.attachments ?? [];
    if (!input.body.trim() && files.length === 0 && attachments.length === 0) throw new ValidationError('ERR_EMPTY_MESSAGE');
    if ([input.body, ...attachments.map((a) => a.caption)].some((text) => text.length > MAX_MESSAGE_LENGTH)) throw new ValidationError('ERR_MESSAGE_TOO_LONG');
    const ticket = await this.deps.conversations.visibleTicket(actor, input.ticketId);
    if (!input.idempotencyKey) return this.send(input, ticket, null);
    // Looked up before the ticket's state is checked again: a retry answers what the first request got, even once the ticket has moved on.
    // (Stored as JSON: the views are JSON already, dates as ISO strings, so the stored answer is the body the first request got.)
    const idem = { key: input.idempotencyKey, fingerprint: fingerprintOf(input, ticket) };
    return this.deps.idempotent.once('ticket-send', ticket.connectionId, idem, () => this.send(input, ticket, idem));
  }

  private async send(input: SendTicketMessageInput, ticket: Ticket, idem: Idempotency | null): Promise<SendTicketMessageResult> {
    const { conversations, replies, announcer, tx } = this.deps;
    const { actor } = input;
    const isPrivate = input.isPrivate ?? false;
    const files = input.medias ?? [];
    const attachments = input.attachments ?? [];
    if (!isPrivate) {
      await this.deps.rules.companyMaySend(ticket.companyId);
      if (ticket.status === 'closed') throw new ConflictError('ERR_TICKET_CLOSED');
      assertMayChange(actor, ticket);
    }
    const connection = await conversations.connection(ticket.companyId, ticket.connectionId);
    const contact = await conversations.contact(ticket.companyId, ticket.contactId);
    if (!isPrivate && !input.template) await this.deps.rules.insideServiceWindow(connection, contact.id, this.deps.clock.now());
    const quoted = await conversations.quoted(ticket, input.quotedMsgId);
    const stored = await this.deps.media.store(ticket.companyId, files, { maxBytes: MAX_TICKET_MEDIA_BYTES, tooLarge: PayloadTooLargeError });
    const drafts = attachments.length
      ? attachments.map((a) => ({ body: a.caption, media: a.media }))
      : stored.length
        ? stored.map((media, i) => ({ body: i === 0 ? input.body : '', media }))
        : [{ body: input.body, media: null }];
    const outcome = await tx.run(async () => {
      const current = await conversations.current(ticket);
      if (!isPrivate && current.status === 'closed') throw new ConflictError('ERR_TICKET_CLOSED');
      const sent = await replies.write(current, drafts, { connection, contact, quoted, userId: actor.userId, isPrivate, template: input.template });
      const preview = attachments.length ? attachments.at(-1)!.caption : input.body || stored[0]?.filename || '';
      const touched = isPrivate ? null : await replies.replied(current, { lastMessage: preview, actor, via: 'message', readsAll: true });
      // With a key the answer is made here and stored with the messages, so a retry answers exactly it.
      let answer: SendTicketMessageResult | null = null;
      if (idem) {
        answer = await this.answerOf(touched ?? current, sent, { contact, connection });
        const record = { companyId: current.companyId, connectionId: current.connectionId, ...idem, answer, createdAt: this.deps.clock.now() };
        // Another transaction holds the key: this one rolls back, and the caller answers as that one did.
        await this.deps.idempotent.keep(record);
      }
      return { ticket: touched, before: current, sent, answer };
    });
    if (outcome.answer) {
      if (outcome.ticket) await announcer.ticketDetails(outcome.answer.ticket, 'update', outcome.before);
      await announcer.createdViews(outcome.answer.ticket, outcome.answer.messages);
      return outcome.answer;
    }
    const details = outcome.ticket ? await announcer.ticket(outcome.ticket, 'update', outcome.before) : await announcer.details(ticket);
    return { messages: await announcer.createdMessages(details, outcome.sent), ticket: details };
  }

  /** The answer as published after the commit: the ticket's details and the messages' views. */
  private async answerOf(ticket: Ticket, sent: readonly Message[], known: { contact: Contact; connection: Connection }): Promise<SendTicketMessageResult> {
    const details = await this.deps.announcer.details(ticket, known);
    return { ticket: details, messages: await this.deps.announcer.views(details, sent) };
  }
}

/**
 * What makes two requests the same: the ticket, the user, the text, the quote, the note flag and
 * each file (its name, type and content's digest), and what other callers pass (attachments, template).
 */
function fingerprintOf(input: SendTicketMessageInput, ticket: Ticket): string {
  return requestFingerprint({
    send: 'ticket-message',
    ticketId: ticket.id,
    userId: input.actor.userId,
    body: input.body,
    quotedMsgId: input.quotedMsgId || null,
    isPrivate: input.isPrivate ?? false,
    medias: (input.medias ?? []).map((f) => ({ filename: f.filename, contentType: f.contentType, sha256: uploadDigest(f) })),
    attachments: input.attachments ?? null,
    template: input.template ?? null,
  });
}
