import type { Users } from '../identity/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { AppMessageEvent, TicketEvent } from '../tickets/ticket-events.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Cache, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { storeUpload, uploadSize, type UploadedFile } from '../uploads/image-upload.js';
import type { OutboundContent } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import { isValidNumber, type MessageMedia } from '../messages/message.js';
import type { MessageContexts } from '../messages/message-view.js';
import { publishCreatedMessages } from '../tickets/publish-messages.js';
import type { TicketPresenter } from '../tickets/ticket-details.js';
import type { OutboundMessages } from '../messages/outbound.js';
import { safeFileName, safeMediaType } from '../connections/connection-media.js';
import type { Contacts } from '../contacts/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { cycleOf, type TicketTracking } from '../tickets/ticket-tracking.js';
import type { Ticket } from '../tickets/ticket.js';
import { findQueue } from '../queues/find-queue.js';
import type { Queues } from '../queues/ports.js';
import { requestFingerprint, type IdempotencyKeys } from './idempotency-keys.js';
import { assertMaySend } from '../tenancy/company-suspension.js';
import type { CompanySuspensions } from '../tenancy/ports.js';
import { assertServiceWindow, type ServiceWindows } from '../bizchat/service-window.js';
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

/** How long the cache marks a key as being processed (the stored answer lives in the database). */
const IDEMPOTENCY_IN_PROGRESS_TTL = 120;
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
      cache: Cache;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      realtime: RealtimeEvents<TicketEvent | AppMessageEvent>;
      queues: Queues;
      idempotencyKeys: IdempotencyKeys;
      presenter: TicketPresenter;
      tracking: TicketTracking;
      contexts?: MessageContexts;
      suspensions?: CompanySuspensions;
      windows: ServiceWindows;
    },
  ) {}

  async execute(input: SendApiMessageInput): Promise<SendApiMessageResult> {
    if (!isValidNumber(input.number)) throw new ValidationError('ERR_INVALID_NUMBER');
    const medias = input.medias ?? [];
    if (!input.body.trim() && medias.length === 0) throw new ValidationError('ERR_EMPTY_MESSAGE');
    if (input.body.length > 65_536) throw new ValidationError('ERR_MESSAGE_TOO_LONG');
    await assertMaySend(this.deps.suspensions, input.connection.companyId);
    // The key and the answer are stored with the messages, in their transaction (see IdempotencyKeys).
    const idem = input.idempotencyKey ? { key: input.idempotencyKey, fingerprint: fingerprintOf(input, medias) } : null;
    if (!idem) return this.send(input, medias, null);
    const first = await this.firstAnswer(input.connection.id, idem);
    if (first) return first;
    const marker = `idem:api-send:${input.connection.id}:${idem.key}`;
    if (!(await this.deps.cache.setIfAbsent(marker, 'pending', IDEMPOTENCY_IN_PROGRESS_TTL))) throw new ConflictError('ERR_IDEMPOTENT_REQUEST_IN_PROGRESS');
    try {
      return await this.send(input, medias, idem);
    } catch (err) {
      // Another instance committed the same key first: answer as it did.
      const answer =
        err instanceof ConflictError && err.code === 'ERR_IDEMPOTENT_REQUEST_IN_PROGRESS' ? await this.firstAnswer(input.connection.id, idem) : null;
      if (answer) return answer;
      throw err;
    } finally {
      await this.deps.cache.delete(marker).catch(() => undefined);
    }
  }

  /** The stored answer of a key, or null; the same key with another request is refused. */
  private async firstAnswer(connectionId: number, idem: { key: string; fingerprint: string }): Promise<SendApiMessageResult | null> {
    const row = await this.deps.idempotencyKeys.find(connectionId, idem.key);
    if (!row) return null;
    if (row.fingerprint !== idem.fingerprint) throw new ValidationError('ERR_IDEMPOTENCY_KEY_REUSED');
    return row.answer as SendApiMessageResult;
  }

  private async send(
    input: SendApiMessageInput,
    medias: readonly UploadedFile[],
    idem: { key: string; fingerprint: string } | null,
  ): Promise<SendApiMessageResult> {
    const { contacts, tickets, users, outbound, blobs, tx, clock, ids, realtime } = this.deps;
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
      if (!input.template) await assertServiceWindow(this.deps.windows, connection, contact.id, now);
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
        const kept = await this.deps.idempotencyKeys.add({ companyId: connection.companyId, connectionId: connection.id, ...idem, answer, createdAt: now });
        if (!kept) throw new ConflictError('ERR_IDEMPOTENT_REQUEST_IN_PROGRESS');
      }
      return { ticket, sent, contact, created };
    });
    const { ticket, sent } = committed;
    const details = await this.deps.presenter.one(ticket, { contact: committed.contact, connection, ticketCreated: committed.created });
    await publishCreatedMessages(this.deps, details, sent);
    await realtime.publish(connection.companyId, { entity: 'ticket', data: { action: 'update', ticket: details } });
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
