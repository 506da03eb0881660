import { ValidationError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import type { OutboundContent } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import { isValidNumber } from '../messages/message.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { OutboundMessages } from '../messages/outbound.js';
import { requestFingerprint } from './idempotency-keys.js';
import type { Idempotency, IdempotentSends } from './idempotent-sends.js';
import type { SendingRules } from './sending-rules.js';
import type { TemplateSend } from '../connections/channel-messages.js';
import type { ApiConversations } from './api-conversations.js';
import type { MediaStore } from './media-store.js';

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
      /** The assignment checked, the contact and its ticket, the ticket's update and cycle. */
      conversations: ApiConversations;
      outbound: OutboundMessages;
      /** Where the uploaded files are stored. */
      media: MediaStore;
      tx: Transaction;
      clock: Clock;
      /** The `Idempotency-Key` protocol (its cache marks and stored answers). */
      idempotent: IdempotentSends;
      /** Tells the operators of the messages and the ticket's update. */
      announcer: ConversationAnnouncer;
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
    const { conversations, outbound, tx, clock } = this.deps;
    const { connection } = input;
    await conversations.checkAssignment(connection, input.queueId, input.userId);
    const stored = await this.deps.media.store(connection.companyId, medias, { maxBytes: MAX_API_MEDIA_BYTES, tooLarge: ValidationError });
    const body = input.sendSignature ? await conversations.signed(connection, input.userId, input.body) : input.body;
    const lastMessage = body || stored[0]?.filename || '';
    const committed = await tx.run(async () => {
      const now = clock.now();
      const contact = await conversations.contact(connection, input.number, now);
      if (!input.template) await this.deps.rules.insideServiceWindow(connection, contact.id, now);
      const { ticket, created } = await conversations.ticket(
        connection,
        contact,
        { userId: input.userId ?? null, queueId: input.queueId ?? null },
        lastMessage,
        now,
      );
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
      await conversations.sent(ticket, created, { lastMessage, close: Boolean(input.closeTicket), userId: input.userId ?? null }, now);
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
