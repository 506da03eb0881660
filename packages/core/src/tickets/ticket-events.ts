import type { MessageUpdated } from '../messages/message-events.js';
import type { MessageView } from '../messages/message-view.js';
import type { RealtimeEventOf } from '../realtime/ports.js';
import type { TicketDetails } from './ticket-details.js';
import type { TicketView } from './ticket-view.js';

/**
 * The ticket a `ticket` or `appMessage` event carries: `TicketDetails` (with contact, connection,
 * user and tags) from the `TicketPresenter`; a bare `TicketView` from inbound routing and the
 * message API.
 */
export type PublishedTicket = TicketDetails | TicketView;

/**
 * `company-<id>-ticket`: a ticket was opened, changed or deleted, or many were closed at once
 * (`closeMany`; `connectionId` when they were the imported tickets of one connection).
 */
export type TicketEvent = RealtimeEventOf<'ticket',
  | { readonly action: 'create'; readonly ticket: PublishedTicket }
  | { readonly action: 'update'; readonly ticket: PublishedTicket }
  | { readonly action: 'delete'; readonly ticketId: number }
  | { readonly action: 'closeMany'; readonly ticketIds: number[]; readonly status: 'closed'; readonly connectionId?: number }>;

/** `company-<id>-appMessage`: a message arrived or was sent (`create`, with its ticket), or changed (`update`). */
export type AppMessageEvent = RealtimeEventOf<'appMessage',
  | { readonly action: 'create'; readonly message: MessageView; readonly ticket: PublishedTicket }
  | MessageUpdated>;
