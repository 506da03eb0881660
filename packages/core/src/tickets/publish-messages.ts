import type { Message } from '../messages/message.js';
import { toMessageViews, type KnownConversation, type MessageContexts, type MessageView } from '../messages/message-view.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { AppMessageEvent } from './ticket-events.js';
import type { TicketDetails } from './ticket-details.js';

/** What a ticket's details already tell its messages' views (their ticket and contact), so they are not read again. */
export function conversationOf(ticket: TicketDetails): KnownConversation {
  const contact = ticket.contact
    ? { id: ticket.contact.id, name: ticket.contact.name, number: ticket.contact.number, urlPicture: ticket.contact.urlPicture }
    : null;
  return {
    ticket: {
      id: ticket.id,
      uuid: ticket.uuid,
      status: ticket.status,
      userId: ticket.userId,
      queueId: ticket.queueId,
      chatappId: ticket.chatappId,
      queue: ticket.queue ? { id: ticket.queue.id, name: ticket.queue.name, color: ticket.queue.color } : null,
    },
    contactId: ticket.contactId,
    contact,
  };
}

/**
 * Tells the operators about new messages of a ticket (`appMessage` create, with the ticket and
 * its contact) and answers their views.
 */
export async function publishCreatedMessages(
  deps: { readonly realtime: RealtimeEvents<AppMessageEvent>; readonly contexts?: MessageContexts },
  ticket: TicketDetails,
  messages: readonly Message[],
): Promise<MessageView[]> {
  const views = await toMessageViews(deps.contexts, ticket.companyId, messages, conversationOf(ticket));
  await announceCreatedMessages(deps, ticket, views);
  return views;
}

/** As `publishCreatedMessages`, with the views already made (in the transaction that wrote them, to be answered as they were). */
export async function announceCreatedMessages(
  deps: { readonly realtime: RealtimeEvents<AppMessageEvent> },
  ticket: TicketDetails,
  views: readonly MessageView[],
): Promise<void> {
  for (const message of views) {
    await deps.realtime.publish(ticket.companyId, { entity: 'appMessage', data: { action: 'create', message, ticket, contact: ticket.contact } });
  }
}
