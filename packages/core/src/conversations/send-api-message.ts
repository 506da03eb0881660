import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { AppMessageEvent, TicketEvent } from '../tickets/ticket-events.js';
import { ConflictError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Cache, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { UploadedFile } from '../uploads/image-upload.js';
import type { OutboundContent } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import { isValidNumber, type MessageMedia } from '../messages/message.js';
import { toMessageView } from '../messages/message-view.js';
import { toTicketView } from '../tickets/ticket-view.js';
import type { OutboundMessages } from '../messages/outbound.js';
import { safeFileName, safeMediaType } from '../connections/connection-media.js';
import type { Contacts } from '../contacts/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { findQueue } from '../queues/manage-queues.js';
import type { Queues } from '../queues/ports.js';

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
}

export interface SendApiMessageResult {
  readonly status: 'SUCCESS';
  readonly message: string;
  readonly ticketId: number;
  readonly messageIds: string[];
  readonly messageId: string;
}

const IDEMPOTENCY_TTL = 24 * 3600;
export const MAX_API_MEDIA_BYTES = 16 * 1024 * 1024;

/**
 * The official message API's send: answers once the messages and their send commands are
 * committed together (durably accepted), not after the network send.
 */
export class SendApiMessage {
  constructor(private readonly deps: {
    contacts: Contacts; tickets: Tickets; users: Users; outbound: OutboundMessages; blobs: BlobStorage; cache: Cache;
    tx: Transaction; clock: Clock; ids: IdGenerator; realtime: RealtimeEvents<TicketEvent | AppMessageEvent>; queues: Queues;
  }) {}

  async execute(input: SendApiMessageInput): Promise<SendApiMessageResult> {
    if (!isValidNumber(input.number)) throw new ValidationError('ERR_INVALID_NUMBER');
    const medias = input.medias ?? [];
    if (!input.body.trim() && medias.length === 0) throw new ValidationError('ERR_EMPTY_MESSAGE');
    if (input.body.length > 65_536) throw new ValidationError('ERR_MESSAGE_TOO_LONG');
    const idemKey = input.idempotencyKey ? `idem:api-send:${input.connection.id}:${input.idempotencyKey}` : null;
    if (idemKey) {
      const first = await this.deps.cache.get(idemKey);
      if (first && first !== 'pending') return JSON.parse(first) as SendApiMessageResult;
      if (first === 'pending' || !(await this.deps.cache.setIfAbsent(idemKey, 'pending', IDEMPOTENCY_TTL))) {
        throw new ConflictError('ERR_IDEMPOTENT_REQUEST_IN_PROGRESS');
      }
    }
    try {
      const result = await this.send(input, medias);
      if (idemKey) await this.deps.cache.set(idemKey, JSON.stringify(result), IDEMPOTENCY_TTL);
      return result;
    } catch (err) {
      if (idemKey) await this.deps.cache.delete(idemKey);
      throw err;
    }
  }

  private async send(input: SendApiMessageInput, medias: readonly UploadedFile[]): Promise<SendApiMessageResult> {
    const { contacts, tickets, users, outbound, blobs, tx, clock, ids, realtime } = this.deps;
    const { connection } = input;
    if (input.queueId != null) await findQueue(this.deps.queues, connection.companyId, input.queueId);
    const stored: MessageMedia[] = [];
    for (const file of medias) {
      if (file.data.length > MAX_API_MEDIA_BYTES) throw new ValidationError('ERR_FILE_TOO_LARGE');
      const key = `public/company-${connection.companyId}/media/${ids.uuid()}-${safeFileName(file.filename)}`;
      const contentType = safeMediaType(file.contentType);
      await blobs.put(key, file.data, contentType);
      stored.push({ key, url: blobs.publicUrl(key), contentType, filename: file.filename, size: file.data.length });
    }
    let body = input.body;
    if (input.sendSignature) {
      const user = input.userId ? await users.findById(connection.companyId, input.userId) : null;
      body = `*${user?.name ?? connection.name}:*\n${body}`;
    }
    const { ticket, sent } = await tx.run(async () => {
      const now = clock.now();
      const contact = await contacts.getOrCreate({
        companyId: connection.companyId, name: input.number, number: input.number, email: null, isGroup: false, profilePicUrl: null,
        createdAt: now, updatedAt: now,
      });
      const { ticket } = await tickets.getOrCreateActive({
        uuid: ids.uuid(), companyId: connection.companyId, contactId: contact.id, connectionId: connection.id, status: 'open',
        userId: input.userId ?? null, queueId: input.queueId ?? null, unreadMessages: 0, lastMessage: '', isGroup: false,
        greetedAt: now, closedAt: null, createdAt: now, updatedAt: now,
      });
      const drafts = stored.length
        ? stored.map((media, i) => ({ body: i === 0 ? body : '', media }))
        : [{ body, media: null }];
      const sent = [];
      for (const d of drafts) {
        sent.push(await outbound.enqueue({ connection, ticket, contact, body: d.body, media: d.media, userId: input.userId ?? null, buttons: input.buttons, list: input.list }));
      }
      ticket.lastMessage = body || stored[0]?.filename || '';
      ticket.updatedAt = now;
      if (input.closeTicket) {
        ticket.status = 'closed';
        ticket.closedAt = now;
      }
      await tickets.update(ticket);
      return { ticket, sent };
    });
    for (const m of sent) await realtime.publish(connection.companyId, { entity: 'appMessage', data: { action: 'create', message: toMessageView(m), ticket: toTicketView(ticket) } });
    await realtime.publish(connection.companyId, { entity: 'ticket', data: { action: 'update', ticket: toTicketView(ticket) } });
    const messageIds = sent.map((m) => m.id);
    return { status: 'SUCCESS', message: 'Message accepted for delivery', ticketId: ticket.id, messageIds, messageId: messageIds[0]! };
  }
}
