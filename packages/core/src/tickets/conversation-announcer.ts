import type { Message } from '../messages/message.js';
import { toMessageViews, type MessageContexts, type MessageView } from '../messages/message-view.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { announceCreatedMessages, conversationOf, publishCreatedMessages } from './publish-messages.js';
import type { KnownTicketParts, TicketDetails, TicketPresenter } from './ticket-details.js';
import type { AppMessageEvent, TicketEvent, TicketPlace } from './ticket-events.js';
import type { Ticket } from './ticket.js';

/**
 * What operators are told of a conversation's new messages: the ticket's details, its messages'
 * views (`appMessage` create) and the ticket's update. One object, built once in the composition,
 * in place of a presenter, the realtime events and the message contexts in each use case.
 */
export class ConversationAnnouncer {
  constructor(
    private readonly deps: {
      presenter: TicketPresenter;
      realtime: RealtimeEvents<AppMessageEvent | TicketEvent>;
      contexts?: MessageContexts;
    },
  ) {}

  /** The ticket's details (what the caller holds already is not read again). */
  details(ticket: Ticket, known: KnownTicketParts = {}): Promise<TicketDetails> {
    return this.deps.presenter.one(ticket, known);
  }

  /** A ticket's create or update (leaving `before`'s place when it moved); answers its details. */
  ticket(ticket: Ticket, action: 'create' | 'update', before?: TicketPlace, known: KnownTicketParts = {}): Promise<TicketDetails> {
    return this.deps.presenter.publish(ticket, action, before, known);
  }

  /** As `ticket`, with details already made (in the transaction that wrote the ticket, to be answered as they were). */
  ticketDetails(details: TicketDetails, action: 'create' | 'update', before?: TicketPlace): Promise<void> {
    return this.deps.presenter.announce(details, action, before);
  }

  /** The ticket's unread count changed (read, or marked unread): `updateUnread`, after its update. */
  async unreadChanged(details: TicketDetails): Promise<void> {
    await this.deps.realtime.publish(details.companyId, { entity: 'ticket', data: { action: 'updateUnread', ticketId: details.id, ticket: details } });
  }

  /** The views of a ticket's messages, published or not (to be answered and announced later). */
  views(details: TicketDetails, messages: readonly Message[]): Promise<MessageView[]> {
    return toMessageViews(this.deps.contexts, details.companyId, messages, conversationOf(details));
  }

  /** Publishes a ticket's new messages (`appMessage` create); answers their views. */
  createdMessages(details: TicketDetails, messages: readonly Message[]): Promise<MessageView[]> {
    return publishCreatedMessages(this.deps, details, messages);
  }

  /** As `createdMessages`, with the views already made. */
  createdViews(details: TicketDetails, views: readonly MessageView[]): Promise<void> {
    return announceCreatedMessages(this.deps, details, views);
  }

  /** Messages sent on a ticket that changed: their views, then the ticket's update; answers the ticket's details. */
  async sent(ticket: Ticket, known: KnownTicketParts, messages: readonly Message[]): Promise<TicketDetails> {
    const details = await this.deps.presenter.one(ticket, known);
    await publishCreatedMessages(this.deps, details, messages);
    await this.deps.presenter.announce(details, 'update');
    return details;
  }

  /**
   * A ticket created or changed with new messages (a contact's that arrived, a forward): the
   * ticket's create or update first (leaving `before`'s place when it moved), then the messages;
   * answers the ticket's details and the messages' views.
   */
  async changedWith(
    ticket: Ticket,
    action: 'create' | 'update',
    before: TicketPlace | undefined,
    known: KnownTicketParts,
    messages: readonly Message[],
  ): Promise<{ ticket: TicketDetails; messages: MessageView[] }> {
    const details = await this.deps.presenter.publish(ticket, action, before, known);
    return { ticket: details, messages: await publishCreatedMessages(this.deps, details, messages) };
  }
}
