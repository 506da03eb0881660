import type { Message } from '../messages/message.js';
import type { ScheduleSend } from '../schedules/ports.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { ConversationAnnouncer } from '../tickets/conversation-announcer.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import { cycleOf, type TicketTracking } from '../tickets/ticket-tracking.js';

/**
 * The ticket a schedule's message goes on, and its update once the message is queued. With
 * `openTicket`, the contact's active ticket on the connection, or a new one with the schedule's
 * status, user and queue; otherwise the active ticket, or the latest closed one (a recurring
 * schedule does not leave a closed ticket per send), or a new closed one.
 */
export class ScheduleTicket {
  constructor(
    private readonly deps: {
      tickets: Tickets;
      ids: IdGenerator;
      clock: Clock;
      tx: Transaction;
      /** Tells the operators of the message and the ticket's update. */
      announcer: ConversationAnnouncer;
      /** Attendance cycles: a ticket the schedule opens is one we started. */
      tracking?: TicketTracking;
    },
  ) {}

  async for(s: ScheduleSend, contactId: number, connectionId: number): Promise<Ticket> {
    const { tickets, ids, clock } = this.deps;
    if (!s.openTicket) {
      const existing =
        (await tickets.findActive(s.companyId, contactId, connectionId)) ?? (await tickets.findLatestClosed(s.companyId, contactId, connectionId));
      if (existing) return existing;
    }
    const now = clock.now();
    const open = s.openTicket && s.statusTicket !== 'closed';
    const { ticket, created } = await tickets.getOrCreateActive({
      uuid: ids.uuid(),
      companyId: s.companyId,
      contactId,
      connectionId,
      status: s.openTicket ? s.statusTicket : 'closed',
      userId: s.openTicket ? s.ticketUserId : null,
      queueId: s.openTicket ? s.queueId : null,
      unreadMessages: 0,
      lastMessage: '',
      isGroup: false,
      greetedAt: now,
      closedAt: open ? null : now,
      createdAt: now,
      updatedAt: now,
    });
    if (created && open) await this.deps.tracking?.open(cycleOf(ticket, now, { outbound: true, reopened: false }));
    return ticket;
  }

  /** The message is queued: the ticket shows it as its last one, and the operators are told after the commit. */
  async sent(ticket: Ticket, lastMessage: string, message: Message, now: Date): Promise<void> {
    await this.deps.tickets.update({ ...ticket, lastMessage, updatedAt: now });
    this.deps.tx.afterCommit(() => {
      void (async () => {
        await this.deps.announcer.sent({ ...ticket, lastMessage, updatedAt: now }, {}, [message]);
      })().catch(() => undefined);
    });
  }
}
