import type { Message } from '../messages/message.js';
import { toMessageViews, type MessageContexts, type MessageView } from '../messages/message-view.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { AppMessageEvent } from './ticket-events.js';
import type { TicketDetails } from './ticket-details.js';

/**
 * Tells the operators about new messages of a ticket (`appMessage` create, with the ticket and
 * its contact) and answers their views.
 */
export async function publishCreatedMessages(
  deps: { readonly realtime: RealtimeEvents<AppMessageEvent>; readonly contexts?: MessageContexts },
  ticket: TicketDetails, messages: readonly Message[],
): Promise<MessageView[]> {
  const views = await toMessageViews(deps.contexts, ticket.companyId, messages);
  for (const message of views) {
    await deps.realtime.publish(ticket.companyId, { entity: 'appMessage', data: { action: 'create', message, ticket, contact: ticket.contact } });
  }
  return views;
}
