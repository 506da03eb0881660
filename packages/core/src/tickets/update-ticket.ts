import type { Users } from '../identity/ports.js';
import type { Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Message } from '../messages/message.js';
import type { Ticket, TicketStatus } from './ticket.js';
import type { ConversationAnnouncer } from './conversation-announcer.js';
import type { Tickets } from './ports.js';
import { assertMayChange, visibleTicket } from './ticket-access.js';
import type { TicketFarewell } from './ticket-farewell.js';
import type { TicketTargets } from './ticket-targets.js';
import type { TicketDetails } from './ticket-details.js';
import { ticketState, type TicketJournal } from './ticket-journal.js';
import type { TicketLogType } from './ticket-log.js';

export interface UpdateTicketInput {
  readonly actor: Actor;
  readonly ticketId: number;
  readonly status?: TicketStatus;
  /** Hand the ticket to this user (a transfer; the actor themself is an accept); null puts it back in the queue. */
  readonly userId?: number | null;
  readonly queueId?: number | null;
  /** The contact's rating, 1 to 5, recorded in the log entry of a close. */
  readonly rating?: number;
  /** Whether a close sends the connection's farewell message (default: it does, when one is set). */
  readonly sendFarewellMessage?: boolean;
  /**
   * Show the conversation as unread again: its unread count becomes at least 1 (reading its
   * messages resets it), with an `updateUnread` event. Open to anyone who may see the ticket.
   */
  readonly markUnread?: boolean;
}

interface Change {
  readonly next: Ticket;
  readonly type: TicketLogType;
}

/**
 * The operator's ticket actions: accept (`status: open`, taken by the actor), transfer to a user
 * or a queue (one of the company's: 404 `ERR_QUEUE_NOT_FOUND` otherwise), return to the queue
 * (`pending`), reopen, and close with the farewell message and an optional rating. The change,
 * its log entry and the farewell's send command commit together; any change stops the bot.
 * `markUnread` shows the conversation as unread again (no log entry: reading it is not logged either).
 */
export class UpdateTicket {
  constructor(
    private readonly deps: {
      tickets: Tickets;
      users: Users;
      /** The user and queue it may be given to. */
      targets: TicketTargets;
      /** The connection's farewell, said on a close. */
      farewell: TicketFarewell;
      journal: TicketJournal;
      /** Tells the operators of the ticket's update and its farewell message. */
      announcer: ConversationAnnouncer;
      tx: Transaction;
      clock: Clock;
    },
  ) {}

  async execute(input: UpdateTicketInput): Promise<TicketDetails> {
    const { tickets, targets, journal, announcer, tx } = this.deps;
    const { actor } = input;
    const moving = input.status !== undefined || input.userId !== undefined || input.queueId !== undefined;
    if (!moving && !input.markUnread) throw new ValidationError('ERR_NOTHING_TO_UPDATE');
    if (input.rating !== undefined && (input.status !== 'closed' || !Number.isInteger(input.rating) || input.rating < 1 || input.rating > 5)) {
      throw new ValidationError('ERR_INVALID_RATING');
    }
    await visibleTicket(this.deps, actor, input.ticketId);
    if (input.userId != null && input.userId !== actor.userId) await targets.assertUser(actor.companyId, input.userId);
    if (input.queueId != null) await targets.assertQueue(actor.companyId, input.queueId);
    const outcome = await tx.run(async () => {
      const ticket = await tickets.findById(actor.companyId, input.ticketId);
      if (!ticket) throw new NotFoundError('ERR_NO_TICKET_FOUND');
      const change = !moving ? null : input.status === 'closed' ? this.close(ticket) : this.move(ticket, input);
      if (!change) {
        if (!input.markUnread || ticket.unreadMessages > 0) return { ticket, before: ticket, sent: [] as Message[] };
        const unread = { ...ticket, unreadMessages: 1 };
        await tickets.update(unread);
        return { ticket: unread, before: ticket, sent: [] as Message[] };
      }
      assertMayChange(actor, ticket);
      const { type } = change;
      const next = input.markUnread ? { ...change.next, unreadMessages: Math.max(1, change.next.unreadMessages) } : change.next;
      const sent = type === 'close' && input.sendFarewellMessage !== false ? await this.deps.farewell.send(next, actor.userId) : [];
      await journal.save(next, type, actor.userId, {
        from: ticketState(ticket),
        to: ticketState(next),
        ...(input.rating !== undefined ? { rating: input.rating } : {}),
        ...(type === 'close' ? { farewell: sent.length > 0 } : {}),
      });
      return { ticket: next, before: ticket, sent };
    });
    const details = await announcer.ticket(outcome.ticket, 'update', outcome.before);
    if (input.markUnread) await announcer.unreadChanged(details);
    await announcer.createdMessages(details, outcome.sent);
    return details;
  }

  private close(ticket: Ticket): Change | null {
    if (ticket.status === 'closed') return null;
    const now = this.deps.clock.now();
    return { next: { ...ticket, status: 'closed', closedAt: now, updatedAt: now, botActive: false }, type: 'close' };
  }

  private move(ticket: Ticket, input: UpdateTicketInput): Change | null {
    const { actor } = input;
    if (ticket.status === 'closed' && input.status === undefined) throw new ConflictError('ERR_TICKET_CLOSED');
    let userId = input.userId !== undefined ? input.userId : ticket.userId;
    const status: TicketStatus = input.status ?? (input.userId === undefined ? ticket.status : userId === null ? 'pending' : 'open');
    if (status === 'pending') {
      if (input.userId) throw new ValidationError('ERR_PENDING_TICKET_HAS_NO_USER');
      userId = null;
    } else if (input.userId === undefined && (ticket.status !== 'open' || userId === null)) {
      userId = actor.userId;
    }
    const queueId = input.queueId !== undefined ? input.queueId : ticket.queueId;
    if (status === ticket.status && userId === ticket.userId && queueId === ticket.queueId) return null;
    const now = this.deps.clock.now();
    // An operator's move ends the bot's conversation: it never talks over a human.
    const next: Ticket = { ...ticket, status, userId, queueId, closedAt: null, updatedAt: now, botActive: false };
    const type: TicketLogType =
      ticket.status === 'closed'
        ? 'reopen'
        : status === 'pending' && ticket.status !== 'pending'
          ? 'pending'
          : userId === actor.userId && ticket.userId !== actor.userId
            ? 'accept'
            : 'transfer';
    return { next, type };
  }
}
