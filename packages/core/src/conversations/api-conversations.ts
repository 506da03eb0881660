import type { Users } from '../identity/ports.js';
import { NotFoundError } from '../shared/errors.js';
import type { IdGenerator } from '../shared/ports.js';
import type { Connection } from '../connections/connection.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import { findQueue } from '../queues/find-queue.js';
import type { Queues } from '../queues/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { cycleOf, type TicketTracking } from '../tickets/ticket-tracking.js';
import type { Ticket } from '../tickets/ticket.js';

/**
 * The conversation a message API send goes into: the queue and user it is assigned to (checked
 * in the connection's company), the contact by number and its active ticket (found or opened),
 * the ticket's update after the send and its attendance cycle.
 */
export class ApiConversations {
  constructor(private readonly deps: { contacts: Contacts; tickets: Tickets; users: Users; queues: Queues; ids: IdGenerator; tracking: TicketTracking }) {}

  /** The queue and the user must be the connection's company's (another company's is 404). */
  async checkAssignment(connection: Connection, queueId: number | null | undefined, userId: number | null | undefined): Promise<void> {
    if (queueId != null) await findQueue(this.deps.queues, connection.companyId, queueId);
    // The ticket goes to this user: it must be one of the connection's company (another company's is 404).
    if (userId != null && !(await this.deps.users.findById(connection.companyId, userId))) throw new NotFoundError('ERR_NO_USER_FOUND');
  }

  /** The text signed with the user's name (the connection's without a user). */
  async signed(connection: Connection, userId: number | null | undefined, body: string): Promise<string> {
    const user = userId ? await this.deps.users.findById(connection.companyId, userId) : null;
    return `*${user?.name ?? connection.name}:*\n${body}`;
  }

  /** The contact with this number, created when the company has none. */
  contact(connection: Connection, number: string, now: Date): Promise<Contact> {
    return this.deps.contacts.getOrCreate({
      companyId: connection.companyId,
      name: number,
      number,
      email: null,
      isGroup: false,
      profilePicUrl: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** The contact's active ticket on the connection, or one opened (`open`, with the send as its last message). */
  ticket(
    connection: Connection,
    contact: Contact,
    assigned: { userId: number | null; queueId: number | null },
    lastMessage: string,
    now: Date,
  ): Promise<{ ticket: Ticket; created: boolean }> {
    return this.deps.tickets.getOrCreateActive({
      uuid: this.deps.ids.uuid(),
      companyId: connection.companyId,
      contactId: contact.id,
      connectionId: connection.id,
      status: 'open',
      userId: assigned.userId,
      queueId: assigned.queueId,
      unreadMessages: 0,
      lastMessage,
      isGroup: false,
      greetedAt: now,
      closedAt: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /**
   * After the send: the ticket shows it as its last message (one this send created was written
   * with it already) and `close` closes it; then the attendance cycle (see `track`).
   */
  async sent(ticket: Ticket, created: boolean, after: { lastMessage: string; close: boolean; userId: number | null }, now: Date): Promise<void> {
    if (!created || after.close) {
      ticket.lastMessage = after.lastMessage;
      ticket.updatedAt = now;
      if (after.close) {
        ticket.status = 'closed';
        ticket.closedAt = now;
      }
      await this.deps.tickets.update(ticket);
    }
    await this.track(ticket, created, after.userId, after.close, now);
  }

  /**
   * The attendance cycle: a ticket this send created is a cycle we started; on an existing one, a
   * send in an operator's name is a response, and `closeTicket` closes the cycle.
   */
  private async track(ticket: Ticket, created: boolean, userId: number | null, closed: boolean, now: Date): Promise<void> {
    const { tracking } = this.deps;
    if (created) return tracking.open(cycleOf(ticket, now, { outbound: true, reopened: false }));
    if (userId !== null) await tracking.responded(ticket.companyId, ticket.id, now);
    if (closed) await tracking.change(ticket.companyId, ticket.id, { queueId: ticket.queueId, userId: ticket.userId, at: now, closed: true });
  }
}
