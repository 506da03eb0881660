import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Transaction } from '../shared/ports.js';
import { toMessageViews, type MessageContexts, type MessageView } from '../messages/message-view.js';
import type { Messages } from '../messages/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { visibleTicket, visibleTicketByUuid } from '../tickets/ticket-access.js';
import type { TicketDetails } from '../tickets/ticket-details.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';

export interface MessagePage {
  readonly messages: MessageView[];
  readonly count: number;
  readonly hasMore: boolean;
}

/**
 * A page of a ticket's conversation: page 1 holds the 20 newest messages, oldest first within
 * the page, as the lineage shows them. The ticket is named by its id or, as the lineage's
 * conversation page does, by its uuid. Opening the conversation reads it: the ticket's unread
 * count goes back to 0 and the operators get a `ticket` update and an `updateUnread`.
 */
export class ListTicketMessages {
  constructor(
    private readonly deps: {
      tickets: Tickets;
      messages: Messages;
      users: Users;
      /** The ticket's details, told to the operators when reading it changed them. */
      announcer: ConversationAnnouncer;
      tx: Transaction;
    },
  ) {}

  async execute(input: {
    readonly actor: Actor;
    readonly ticketId: number | string;
    readonly pageNumber?: number;
  }): Promise<MessagePage & { ticket: TicketDetails }> {
    const { tickets, messages, announcer, tx } = this.deps;
    const ticket =
      typeof input.ticketId === 'number'
        ? await visibleTicket(this.deps, input.actor, input.ticketId)
        : await visibleTicketByUuid(this.deps, input.actor, input.ticketId);
    const page = pageFromNumber(input.pageNumber);
    const result = await messages.listByTicket(ticket.companyId, ticket.id, page);
    let details: TicketDetails;
    if (ticket.unreadMessages > 0) {
      const read = await tx.run(async () => {
        const current = await tickets.findById(ticket.companyId, ticket.id);
        if (!current) throw new NotFoundError('ERR_NO_TICKET_FOUND');
        const next = { ...current, unreadMessages: 0 };
        if (current.unreadMessages > 0) await tickets.update(next);
        return next;
      });
      details = await announcer.ticket(read, 'update');
      await announcer.unreadChanged(details);
    } else {
      details = await announcer.details(ticket);
    }
    // Listing the conversation reads it: every message shown is read.
    const views = (await announcer.views(details, result.rows.reverse())).map((m) => ({
      ...m,
      read: true,
    }));
    return { messages: views, ticket: details, count: result.count, hasMore: hasMore(page, result.count) };
  }
}

/** The files of a ticket's conversation (images, audio, documents), newest first. */
export class ListTicketMedia {
  constructor(private readonly deps: { tickets: Tickets; messages: Messages; users: Users; contexts?: MessageContexts }) {}

  async execute(input: { readonly actor: Actor; readonly ticketId: number; readonly pageNumber?: number }): Promise<MessagePage> {
    const ticket = await visibleTicket(this.deps, input.actor, input.ticketId);
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.messages.list({ companyId: ticket.companyId, ticketId: ticket.id, withMedia: true, page });
    return { messages: await toMessageViews(this.deps.contexts, ticket.companyId, result.rows), count: result.count, hasMore: hasMore(page, result.count) };
  }
}
