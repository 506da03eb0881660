import type { InboundMessageEvent } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import { inboundMediaOf, type InboundMedia } from '../connections/inbound-media.js';
import { inboundContent } from '../connections/shared-content.js';
import type { Contact } from '../contacts/contact.js';
import type { Message } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import type { IdGenerator } from '../shared/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import { holdBlockedMessage, type HeldMessage } from './blocked-inbound.js';
import { pendingMedia } from './fetch-inbound-media.js';

/** Where a contact's file is handed to the job that fetches it (within the transaction that stores its message). */
export interface InboundMediaQueue {
  enqueue(message: Message, media: InboundMedia, at: Date): Promise<unknown>;
}

/**
 * Contacts' messages as stored: once per provider id and connection (a duplicate is known before
 * anything changes), a blocked contact's held aside, others stored with their file pending and
 * handed to the job that fetches it.
 */
export class InboundMessageStore {
  constructor(
    private readonly deps: {
      messages: Messages;
      tickets: Tickets;
      ids: IdGenerator;
      /**
       * Without it the message keeps its caption and its file shows as failed
       * (`ERR_MEDIA_NOT_SUPPORTED`): nothing here could fetch it.
       */
      inboundMedia?: InboundMediaQueue;
    },
  ) {}

  /** The provider's message is stored already (a redelivered or duplicated event). */
  async stored(connectionId: number, providerMessageId: string): Promise<boolean> {
    return (await this.deps.messages.findByProviderId(connectionId, providerMessageId)) !== null;
  }

  /** A blocked contact's message, kept but routed nowhere (see `holdBlockedMessage`). */
  hold(input: { connection: Connection; contact: Contact; event: InboundMessageEvent; now: Date }): Promise<HeldMessage | null> {
    return holdBlockedMessage(this.deps, input);
  }

  /**
   * The message on its ticket, with its file pending (fetched by a job); null when another
   * delivery stored it first. A shared location or contact cards are stored in the lineage's body
   * shape; `lastMessage` names them in words.
   */
  async add(input: {
    connection: Connection;
    contact: Contact;
    ticket: Ticket;
    event: InboundMessageEvent;
    now: Date;
  }): Promise<{ message: Message; lastMessage: string } | null> {
    const { connection, contact, ticket, event, now } = input;
    const at = new Date(event.at);
    const content = inboundContent(event);
    const id = this.deps.ids.uuid();
    const media = inboundMediaOf(event.media);
    const message: Message = {
      id,
      companyId: connection.companyId,
      ticketId: ticket.id,
      contactId: contact.id,
      connectionId: connection.id,
      providerMessageId: event.providerMessageId,
      fromMe: false,
      body: content.body,
      media: media ? this.mediaOf(media, id) : null,
      status: 'delivered',
      failureReason: null,
      quotedMessageId: null,
      isPrivate: false,
      userId: null,
      createdAt: Number.isNaN(at.getTime()) ? now : at,
      updatedAt: now,
      isDeleted: false,
      isEdited: false,
      editedAt: null,
      transcription: null,
      kind: content.kind,
    };
    if (!(await this.deps.messages.addInbound(message))) return null;
    if (media && this.deps.inboundMedia) await this.deps.inboundMedia.enqueue(message, media, now);
    return { message, lastMessage: content.lastMessage };
  }

  /** A contact's file as its message stores it at once: pending while the job fetches it, failed when nothing here can. */
  private mediaOf(media: InboundMedia, messageId: string): Message['media'] {
    const pending = pendingMedia(media, messageId);
    return this.deps.inboundMedia ? pending : { ...pending, status: 'failed', error: 'ERR_MEDIA_NOT_SUPPORTED' };
  }
}
