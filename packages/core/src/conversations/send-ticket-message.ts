import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { storeUpload, uploadDigest, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import { safeFileName, safeMediaType } from '../connections/connection-media.js';
import type { Message, MessageMedia } from '../messages/message.js';
import type { Ticket } from '../tickets/ticket.js';
import type { MessageView } from '../messages/message-view.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Contact } from '../contacts/contact.js';
import type { Connection } from '../connections/connection.js';
import type { Messages } from '../messages/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { assertMayChange, visibleTicket } from '../tickets/ticket-access.js';
import type { TicketDetails } from '../tickets/ticket-details.js';
import { ticketState, type TicketJournal } from '../tickets/ticket-journal.js';
import type { SendingRules } from './sending-rules.js';
import type { TemplateSend } from '../connections/channel-messages.js';
import { requestFingerprint } from './idempotency-keys.js';
import type { Idempotency, IdempotentSends } from './idempotent-sends.js';

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

/** Stores uploaded files as public media of the company; the name and type are made safe to serve. */
export async function storeMedia(deps: { blobs: BlobStorage; ids: IdGenerator }, companyId: number, files: readonly UploadedFile[]): Promise<MessageMedia[]> {
  const stored: MessageMedia[] = [];
  for (const file of files) {
    const size = uploadSize(file);
    if (size > MAX_TICKET_MEDIA_BYTES) throw new PayloadTooLargeError('ERR_FILE_TOO_LARGE');
    if (size === 0) throw new ValidationError('ERR_EMPTY_FILE');
  }
  for (const file of files) {
    const key = `public/company-${companyId}/media/${deps.ids.uuid()}-${safeFileName(file.filename)}`;
    const contentType = safeMediaType(file.contentType);
    await storeUpload(deps.blobs, key, file, contentType);
    stored.push({ key, url: deps.blobs.publicUrl(key), contentType, filename: file.filename, size: uploadSize(file) });
  }
  return stored;
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
      tickets: Tickets;
      messages: Messages;
      contacts: Contacts;
      connections: Connections;
      users: Users;
      outbound: OutboundMessages;
      journal: TicketJournal;
      /** Tells the operators of the ticket and its new messages. */
      announcer: ConversationAnnouncer;
      blobs: BlobStorage;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
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
    const ticket = await visibleTicket(this.deps, actor, input.ticketId);
    if (!input.idempotencyKey) return this.send(input, ticket, null);
    // Looked up before the ticket's state is checked again: a retry answers what the first request got, even once the ticket has moved on.
    // (Stored as JSON: the views are JSON already, dates as ISO strings, so the stored answer is the body the first request got.)
    const idem = { key: input.idempotencyKey, fingerprint: fingerprintOf(input, ticket) };
    return this.deps.idempotent.once('ticket-send', ticket.connectionId, idem, () => this.send(input, ticket, idem));
  }

  private async send(input: SendTicketMessageInput, ticket: Ticket, idem: Idempotency | null): Promise<SendTicketMessageResult> {
    const { tickets, messages, contacts, connections, announcer, tx } = this.deps;
    const { actor } = input;
    const isPrivate = input.isPrivate ?? false;
    const files = input.medias ?? [];
    const attachments = input.attachments ?? [];
    if (!isPrivate) {
      await this.deps.rules.companyMaySend(ticket.companyId);
      if (ticket.status === 'closed') throw new ConflictError('ERR_TICKET_CLOSED');
      assertMayChange(actor, ticket);
    }
    const connection = await connections.findById(ticket.companyId, ticket.connectionId);
    if (!connection) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
    const contact = await contacts.findById(ticket.companyId, ticket.contactId);
    if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    if (!isPrivate && !input.template) await this.deps.rules.insideServiceWindow(connection, contact.id, this.deps.clock.now());
    const quoted = input.quotedMsgId ? await messages.findById(ticket.companyId, input.quotedMsgId) : null;
    if (input.quotedMsgId && (!quoted || quoted.contactId !== ticket.contactId || quoted.connectionId !== ticket.connectionId)) {
      throw new ValidationError('ERR_QUOTED_MESSAGE_NOT_FOUND');
    }
    const stored = await storeMedia(this.deps, ticket.companyId, files);
    const drafts = attachments.length
      ? attachments.map((a) => ({ body: a.caption, media: a.media }))
      : stored.length
        ? stored.map((media, i) => ({ body: i === 0 ? input.body : '', media }))
        : [{ body: input.body, media: null }];
    const outcome = await tx.run(async () => {
      const current = await tickets.findById(ticket.companyId, ticket.id);
      if (!current) throw new NotFoundError('ERR_NO_TICKET_FOUND');
      if (!isPrivate && current.status === 'closed') throw new ConflictError('ERR_TICKET_CLOSED');
      const sent: Message[] = [];
      for (const [i, d] of drafts.entries()) {
        const q = i === 0 ? quoted : null;
        sent.push(
          isPrivate
            ? await this.note(current, d.body, d.media, q, actor.userId)
            : await this.deps.outbound.enqueue({
                connection,
                ticket: current,
                contact,
                body: d.body,
                media: d.media,
                userId: actor.userId,
                quoted: q,
                template: input.template,
              }),
        );
      }
      if (!isPrivate) await this.deps.journal.responded(current);
      const preview = attachments.length ? attachments.at(-1)!.caption : input.body || stored[0]?.filename || '';
      const touched = isPrivate ? null : await this.touch(current, preview, actor);
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

  private async note(ticket: Ticket, body: string, media: MessageMedia | null, quoted: Message | null, userId: number): Promise<Message> {
    const now = this.deps.clock.now();
    const note: Message = {
      id: this.deps.ids.uuid(),
      companyId: ticket.companyId,
      ticketId: ticket.id,
      contactId: ticket.contactId,
      connectionId: ticket.connectionId,
      providerMessageId: null,
      fromMe: true,
      body,
      media,
      status: 'sent',
      failureReason: null,
      quotedMessageId: quoted?.id ?? null,
      isPrivate: true,
      userId,
      createdAt: now,
      updatedAt: now,
      isDeleted: false,
      isEdited: false,
      editedAt: null,
      transcription: null,
    };
    await this.deps.messages.add(note);
    return note;
  }

  /** The reply reads the conversation and, on a pending or unassigned ticket, takes it. */
  private async touch(ticket: Ticket, lastMessage: string, actor: Actor): Promise<Ticket> {
    const next: Ticket = { ...ticket, lastMessage, unreadMessages: 0, updatedAt: this.deps.clock.now() };
    if (ticket.status === 'pending' || ticket.userId === null) {
      next.status = 'open';
      next.userId = actor.userId;
      await this.deps.journal.save(next, 'accept', actor.userId, { from: ticketState(ticket), to: ticketState(next), via: 'message' });
    } else {
      await this.deps.tickets.update(next);
    }
    return next;
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
