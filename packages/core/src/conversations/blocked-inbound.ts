import type { InboundMessageEvent } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import type { Contact } from '../contacts/contact.js';
import type { Message } from '../messages/message.js';
import { inboundContent } from '../connections/shared-content.js';
import type { Messages } from '../messages/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { IdGenerator } from '../shared/ports.js';

export interface HeldMessage {
  readonly held: true;
  readonly ticketId: number;
  readonly messageId: string;
}

/**
 * A blocked contact's message is kept but routed nowhere: it joins the contact's active ticket on
 * the connection if one exists, else its latest closed ticket, else a closed ticket made to hold
 * it (messages always belong to a ticket). The ticket itself does not change (no unread count, no
 * reopening, no greeting) and no operator is told. Null for a duplicate of a stored message.
 */
export async function holdBlockedMessage(
  deps: { tickets: Tickets; messages: Messages; ids: IdGenerator },
  input: { connection: Connection; contact: Contact; event: InboundMessageEvent; now: Date },
): Promise<HeldMessage | null> {
  const { tickets, messages, ids } = deps;
  const { connection, contact, event, now } = input;
  const key = [connection.companyId, contact.id, connection.id] as const;
  let ticket = (await tickets.findActive(...key)) ?? (await tickets.findLatestClosed(...key));
  // A closed draft never collides with the one-active-ticket rule, so this always creates it.
  ticket ??= (
    await tickets.getOrCreateActive({
      uuid: ids.uuid(),
      companyId: connection.companyId,
      contactId: contact.id,
      connectionId: connection.id,
      status: 'closed',
      userId: null,
      queueId: null,
      unreadMessages: 0,
      lastMessage: '',
      isGroup: event.isGroup,
      greetedAt: null,
      closedAt: now,
      createdAt: now,
      updatedAt: now,
    })
  ).ticket;
  const at = new Date(event.at);
  const content = inboundContent(event);
  const message: Message = {
    id: ids.uuid(),
    companyId: connection.companyId,
    ticketId: ticket.id,
    contactId: contact.id,
    connectionId: connection.id,
    providerMessageId: event.providerMessageId,
    fromMe: false,
    body: content.body,
    media: null,
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
  if (!(await messages.addInbound(message))) return null;
  return { held: true, ticketId: ticket.id, messageId: message.id };
}
