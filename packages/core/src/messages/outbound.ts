import type { Clock, IdGenerator } from '../shared/ports.js';
import { SUBJECTS } from '../outbox/broker.js';
import type { OutboundContent, SessionSendMessage, SocialSendMessage } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import type { Contact } from '../contacts/contact.js';
import type { Message, MessageMedia } from './message.js';
import type { Messages } from './ports.js';
import type { Outbox } from '../outbox/ports.js';

export interface OutboundDraft {
  readonly connection: Connection;
  /** The ticket the message belongs to (only its id and company are needed to send). */
  readonly ticket: { readonly id: number; readonly companyId: number };
  readonly contact: Contact;
  readonly body: string;
  readonly media?: MessageMedia | null;
  readonly userId?: number | null;
  readonly buttons?: OutboundContent['buttons'];
  readonly list?: OutboundContent['list'];
  /** The message this one replies to; the connector quotes it when it has a provider id. */
  readonly quoted?: Message | null;
  /** A bizchat template the connector sends instead of `body` (which holds its rendered text). */
  readonly template?: OutboundContent['template'];
}

/**
 * Writes an outgoing message as `pending` together with the command that will send it, in the
 * caller's transaction: the message is durably accepted, and the outbox relay delivers the
 * command to the channel runtime afterwards, even if the broker is down right now.
 */
export class OutboundMessages {
  constructor(private readonly deps: { messages: Messages; outbox: Outbox; clock: Clock; ids: IdGenerator }) {}

  async enqueue(draft: OutboundDraft): Promise<Message> {
    const { messages, outbox, clock, ids } = this.deps;
    const now = clock.now();
    const message: Message = {
      id: ids.uuid(),
      companyId: draft.ticket.companyId,
      ticketId: draft.ticket.id,
      contactId: draft.contact.id,
      connectionId: draft.connection.id,
      providerMessageId: null,
      fromMe: true,
      body: draft.body,
      media: draft.media ?? null,
      status: 'pending',
      failureReason: null,
      quotedMessageId: draft.quoted?.id ?? null,
      isPrivate: false,
      userId: draft.userId ?? null,
      createdAt: now,
      updatedAt: now,
      isDeleted: false,
      isEdited: false,
      editedAt: null,
      transcription: null,
    };
    await messages.add(message);
    const content: OutboundContent = {
      body: draft.body,
      ...(draft.media ? { media: { url: draft.media.url, key: draft.media.key, contentType: draft.media.contentType, filename: draft.media.filename } } : {}),
      ...(draft.buttons ? { buttons: draft.buttons } : {}),
      ...(draft.list ? { list: draft.list } : {}),
      ...(draft.quoted?.providerMessageId ? { quotedProviderMessageId: draft.quoted.providerMessageId } : {}),
      ...(draft.template ? { template: draft.template } : {}),
    };
    const base = {
      messageId: message.id,
      issuedAt: now.toISOString(),
      companyId: message.companyId,
      chatappId: draft.connection.id,
      ticketId: draft.ticket.id,
      to: draft.contact.number,
      content,
    };
    const command: SessionSendMessage | SocialSendMessage =
      draft.connection.kind === 'socialnet' ? { type: 'SocialSendMessage', ...base } : { type: 'SessionSendMessage', ...base };
    const subject = command.type === 'SocialSendMessage' ? SUBJECTS.socialSend(draft.connection.id) : SUBJECTS.sessionSend(draft.connection.id);
    await outbox.add({ id: message.id, subject, payload: command, createdAt: now });
    return message;
  }
}
