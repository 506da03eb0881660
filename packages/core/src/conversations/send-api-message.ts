import type { Users } from '../identity/ports.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import type { OutboundContent } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import { isValidNumber, type MessageMedia } from '../messages/message.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { OutboundMessages } from '../messages/outbound.js';
import { safeFileName, safeMediaType } from '../connections/connection-media.js';
import type { Contacts } from '../contacts/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { cycleOf, type TicketTracking } from '../tickets/ticket-tracking.js';
import type { Ticket } from '../tickets/ticket.js';
import { findQueue } from '../queues/find-queue.js';
import type { Queues } from '../queues/ports.js';
import { requestFingerprint } from './idempotency-keys.js';
import type { Idempotency, IdempotentSends } from './idempotent-sends.js';
import type { SendingRules } from './sending-rules.js';
import type { TemplateSend } from '../connections/channel-messages.js';

export interface SendApiMessageInput {
  /** The connection whose API token authorised the call: it fixes the company too. */
  readonly connection: Connection;
  readonly number: string;
  readonly body: string;
  readonly userId?: number | null;
  readonly queueId?: number | null;
  readonly sendSignature?: boolean;
  readonly closeTicket?: boolean;
  readonly medias?: readonly UploadedFile[];
  readonly buttons?: OutboundContent['buttons'];
  readonly list?: OutboundContent['list'];
  /** A retried request with the same key returns the first result and sends nothing again. */
  readonly idempotencyKey?: string;
  /** A bizchat template the connector sends, `body` being its rendered text (allowed outside the 24-hour window). */
  readonly template?: TemplateSend;
}

export interface SendApiMessageResult {
  readonly status: 'SUCCESS';
  readonly message: string;
  readonly ticketId: number;
  readonly messageIds: string[];
  readonly messageId: string;
}

export const MAX_API_MEDIA_BYTES = 16 * 1024 * 1024;

/**
 * The official message API's send: answers once the messages and their send commands are
 * committed together (durably accepted), not after the network send.
 */
export class SendApiMessage {
  constructor(
    private readonly deps: {
      contacts: Contacts;
      tickets: Tickets;
      users: Users;
      outbound: OutboundMessages;
      blobs: BlobStorage;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      queues: Queues;
      /** The `Idempotency-Key` protocol (its cache marks and stored answers). */
      idempotent: IdempotentSends;
      /** Tells the operators of the messages and the ticket's update. */
      announcer: ConversationAnnouncer;
      tracking: TicketTracking;
      /** The company's suspension and the contact's service window. */
      rules: SendingRules;
    },
  ) {}

  async execute(input: SendApiMessageInput): Promise<SendApiMessageResult> {
    if (!isValidNumber(input.number)) throw new ValidationError('ERR_INVALID_NUMBER');
    const medias = input.medias ?? [];
    if (!input.body.trim() && medias.length === 0) throw new ValidationError('ERR_EMPTY_MESSAGE');
    if (input.body.length > 65_536) throw new ValidationError('ERR_MESSAGE_TOO_LONG');
    await this.deps.rules.companyMaySend(input.connection.companyId);
    // The key and the answer are stored with the messages, in their transaction (see IdempotencyKeys).
    const idem = input.idempotencyKey ? { key: input.idempotencyKey, fingerprint: fingerprintOf(input, medias) } : null;
    if (!idem) return this.send(input, medias, null);
    return this.deps.idempotent.once('api-send', input.connection.id, idem, () => this.send(input, medias, idem));
  }

  private async send(input: SendApiMessageInput, medias: readonly UploadedFile[], idem: Idempotency | null): Promise<SendApiMessageResult> {
    const { contacts, tickets, users, outbound, blobs, tx, clock, ids } = this.deps;
    const { connection } = input;
    if (input.queueId != null) await findQueue(this.deps.queues, connection.companyId, input.queueId);
    // The ticket goes to this user: it must be one of the connection's company (another company's is 404).
    if (input.userId != null && !(await users.findById(connection.companyId, input.userId))) throw new NotFoundError('ERR_NO_USER_FOUND');
    const stored: MessageMedia[] = [];
    for (const file of medias) {
      if (uploadSize(file) > MAX_API_MEDIA_BYTES) throw new ValidationError('ERR_FILE_TOO_LARGE');
      if (uploadSize(file) === 0) throw new ValidationError('ERR_EMPTY_FILE');
    }
    for (const file of medias) {
      const key = `public/company-${connection.companyId}/media/${ids.uuid()}-${safeFileName(file.filename)}`;
      const contentType = safeMediaType(file.contentType);
      await storeUpload(blobs, key, file, contentType);
      stored.push({ key, url: blobs.publicUrl(key), contentType, filename: file.filename, size: uploadSize(file) });
    }
    let body = input.body;
    if (input.sendSignature) {
      const user = input.userId ? await users.findById(connection.companyId, input.userId) : null;
      body = `*${user?.name ?? connection.name}:*\n${body}`;
    }
    const lastMessage = body || stored[0]?.filename || '';
    const committed = await tx.run(async () => {
      const now = clock.now();
      const contact = await contacts.getOrCreate({
        companyId: connection.companyId,
        name: input.number,
        number: input.number,
        email: null,
        isGroup: false,
        profilePicUrl: null,
        createdAt: now,
        updatedAt: now,
      });
      if (!input.template) await this.deps.rules.insideServiceWindow(connection, contact.id, now);
      const { ticket, created } = await tickets.getOrCreateActive({
        uuid: ids.uuid(),
        companyId: connection.companyId,
        contactId: contact.id,
        connectionId: connection.id,
        status: 'open',
        userId: input.userId ?? null,
        queueId: input.queueId ?? null,
        unreadMessages: 0,
        lastMessage,
        isGroup: false,
        greetedAt: now,
        closedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      const drafts = stored.length ? stored.map((media, i) => ({ body: i === 0 ? body : '', media })) : [{ body, media: null }];
      const sent = [];
      for (const d of drafts) {
        sent.push(
          await outbound.enqueue({
            connection,
            ticket,
            contact,
            body: d.body,
            media: d.media,
            userId: input.userId ?? null,
            buttons: input.buttons,
            list: input.list,
            template: input.template,
          }),
        );
      }
      // A ticket this send created was written with its last message already.
      if (!created || input.closeTicket) {
        ticket.lastMessage = lastMessage;
        ticket.updatedAt = now;
        if (input.closeTicket) {
          ticket.status = 'closed';
          ticket.closedAt = now;
        }
        await tickets.update(ticket);
      }
      await this.track(ticket, created, input.userId ?? null, Boolean(input.closeTicket), now);
      if (idem) {
        const answer = resultOf(
          ticket.id,
          sent.map((m) => m.id),
        );
        await this.deps.idempotent.keep({ companyId: connection.companyId, connectionId: connection.id, ...idem, answer, createdAt: now });
      }
      return { ticket, sent, contact, created };
    });
    const { ticket, sent } = committed;
    await this.deps.announcer.sent(ticket, { contact: committed.contact, connection, ticketCreated: committed.created }, sent);
    return resultOf(
      ticket.id,
      sent.map((m) => m.id),
    );
  }

  /**
   * The attendance cycle: a ticket this send created is a cycle we started; on an existing one, a
   * send in an operator's name is a response, and `closeTicket` closes the cycle.
   */
  private async track(ticket: Ticket, created: boolean, userId: number | null, closed: boolean, now: Date): Promise<void> {
    const { tracking } = this.deps;
    if (created) return tracking.open(cycleOf(ticket, now, { outbound: true, reopened: false }));
    if (userId !== null) await tracking.responded(ticket.companyId, ticket.id, now);
    if (closed) await tracking.change(ticket.companyId, ticket.id, { queueId: ticket.queueId, userId: ticket.userId, at: now, closed: true });
  }
}

function resultOf(ticketId: number, messageIds: string[]): SendApiMessageResult {
  return { status: 'SUCCESS', message: 'Message accepted for delivery', ticketId, messageIds, messageId: messageIds[0]! };
}

/** What makes two requests the same: every field that changes what is sent (files by name, type and size). */
function fingerprintOf(input: SendApiMessageInput, medias: readonly UploadedFile[]): string {
  return requestFingerprint({
    number: input.number,
    body: input.body,
    userId: input.userId ?? null,
    queueId: input.queueId ?? null,
    sendSignature: input.sendSignature ?? false,
    closeTicket: input.closeTicket ?? false,
    medias: medias.map((f) => ({ filename: f.filename, contentType: f.contentType, size: uploadSize(f) })),
    buttons: input.buttons ?? null,
    list: input.list ?? null,
    template: input.template ?? null,
  });
}
