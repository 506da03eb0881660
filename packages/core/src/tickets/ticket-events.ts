import type { MessageUpdated } from '../messages/message-events.js';
import type { MessageView } from '../messages/message-view.js';
import type { RealtimeEventOf } from '../realtime/ports.js';
import type { Ticket } from './ticket.js';
import type { TicketContact, TicketDetails } from './ticket-details.js';

/** Where a ticket is listed: its status, user and queue. */
export interface TicketPlace {
  readonly status: Ticket['status'];
  readonly userId: number | null;
  readonly queueId: number | null;
}

/** The ticket a `ticket` or `appMessage` event carries: `TicketDetails` (with contact, chatapp, queue, user and tags). */
export type PublishedTicket = TicketDetails;

/**
 * `company-<id>-ticket`: a ticket was opened, changed or deleted, its conversation was read
 * (`updateUnread`: its unread count went back to 0), or many were closed at once (`closeMany`;
 * `chatappId` when they were the imported tickets of one connection).
 */
export type TicketEvent = RealtimeEventOf<
  'ticket',
  | { readonly action: 'create'; readonly ticket: PublishedTicket }
  | { readonly action: 'update'; readonly ticket: PublishedTicket }
  | { readonly action: 'updateUnread'; readonly ticketId: number; readonly ticket: PublishedTicket }
  /**
   * The ticket is gone (deleted), or, with `from`, it left the lists it was in: its status, user or
   * queue changed (`from` is what they were). The `update` with its new state follows; the client
   * drops the ticket from every list on `delete` and adds it to the matching one on `update`.
   */
  | { readonly action: 'delete'; readonly ticketId: number; readonly from?: TicketPlace }
  | { readonly action: 'closeMany'; readonly ticketIds: number[]; readonly status: 'closed'; readonly chatappId?: number }
>;

/**
 * `company-<id>-contactTyping`: the contact of an open or pending ticket is typing (`composing`),
 * recording audio (`recording`) or stopped (`paused`), as the channel reports it. Ephemeral (see
 * `EPHEMERAL_ENTITIES`): no `seq`, never replayed. `scope` is the ticket as the visibility rule reads
 * it (who receives the frame); it is not sent.
 */
export type ContactTypingEvent = RealtimeEventOf<
  'contactTyping',
  { readonly action: 'update'; readonly ticketId: number; readonly contactId: number; readonly state: 'composing' | 'recording' | 'paused' }
> & { readonly scope: Pick<Ticket, 'id' | 'queueId' | 'userId' | 'status'> };

/**
 * `company-<id>-appMessage`: a message arrived or was sent (`create`, with its ticket and the
 * ticket's contact), or changed (`update`).
 */
export type AppMessageEvent = RealtimeEventOf<
  'appMessage',
  { readonly action: 'create'; readonly message: MessageView; readonly ticket: PublishedTicket; readonly contact: TicketContact | null } | MessageUpdated
>;
