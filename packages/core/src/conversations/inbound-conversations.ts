import type { InboundMessageEvent } from '../connections/channel-messages.js';
import type { Connection } from '../connections/connection.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import type { IdGenerator } from '../shared/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { TicketPlace } from '../tickets/ticket-events.js';
import { changeOf, cycleOf, type TicketTracking } from '../tickets/ticket-tracking.js';
import type { Ticket } from '../tickets/ticket.js';

/**
 * The conversation a contact's message comes into: the contact by its number (created on its
 * first message), its active ticket on the connection (a recently closed one back as pending, or
 * a new pending one), whether this message opens it, and the ticket saved with its attendance cycle.
 */
export class InboundConversations {
  constructor(private readonly deps: { contacts: Contacts; tickets: Tickets; ids: IdGenerator; tracking: TicketTracking }) {}

  contact(connection: Connection, event: InboundMessageEvent, now: Date): Promise<Contact> {
    return this.deps.contacts.getOrCreate({
      companyId: connection.companyId,
      name: event.senderName || event.from,
      number: event.from,
      email: null,
      isGroup: event.isGroup,
      profilePicUrl: null,
      createdAt: now,
      updatedAt: now,
    });
  }

  /** The ticket the message joins, whether this created it, and where it was before (a reopened ticket: closed). */
  async ticket(
    connection: Connection,
    contact: Contact,
    event: InboundMessageEvent,
    now: Date,
  ): Promise<{ ticket: Ticket; created: boolean; before: TicketPlace }> {
    const recent = await this.reopenable(connection.reopenWindowMinutes, contact.id, connection.id, now, connection.companyId);
    let ticket: Ticket;
    let created = false;
    let before: TicketPlace | undefined;
    if (recent) {
      ({ ticket, before } = recent);
    } else {
      const got = await this.deps.tickets.getOrCreateActive({
        uuid: this.deps.ids.uuid(),
        companyId: connection.companyId,
        contactId: contact.id,
        connectionId: connection.id,
        status: 'pending',
        userId: null,
        queueId: null,
        unreadMessages: 0,
        lastMessage: '',
        isGroup: event.isGroup,
        greetedAt: null,
        closedAt: null,
        createdAt: now,
        updatedAt: now,
      });
      ticket = got.ticket;
      created = got.created;
    }
    before ??= { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId };
    return { ticket, created, before };
  }

  /**
   * The first message of a conversation opens it (greeting, menus) exactly once, whoever races;
   * a ticket this transaction created is seen by nobody else before it commits.
   */
  async opens(ticket: Ticket, created: boolean, event: InboundMessageEvent, now: Date): Promise<boolean> {
    return !event.isGroup && ticket.greetedAt === null && (created || (await this.deps.tickets.markGreeted(ticket.id, now)));
  }

  /** The ticket as the message and the routing left it, and its attendance cycle. */
  async save(ticket: Ticket, before: TicketPlace, created: boolean, now: Date): Promise<void> {
    await this.deps.tickets.update(ticket);
    await this.track(ticket, before, created, now);
  }

  /** The contact opened a conversation (a new ticket, or a closed one back) or the routing moved it: its attendance cycle follows. */
  private async track(ticket: Ticket, before: TicketPlace, created: boolean, now: Date): Promise<void> {
    const { tracking } = this.deps;
    if (created || before.status === 'closed') {
      await tracking.open(cycleOf(ticket, now, { outbound: false, reopened: !created }));
      return;
    }
    const change = changeOf(before, ticket, now);
    if (change) await tracking.change(ticket.companyId, ticket.id, change);
  }

  /** A ticket closed within the connection's reopen window comes back as pending. */
  private async reopenable(windowMinutes: number, contactId: number, connectionId: number, now: Date, companyId: number) {
    // Without a window, getOrCreateActive alone finds the active ticket or opens one.
    if (windowMinutes <= 0) return null;
    const active = await this.deps.tickets.findActive(companyId, contactId, connectionId);
    if (active) return { ticket: active, before: undefined };
    const closed = await this.deps.tickets.findLatestClosed(companyId, contactId, connectionId);
    if (!closed?.closedAt || now.getTime() - closed.closedAt.getTime() > windowMinutes * 60_000) return null;
    const before: TicketPlace = { status: closed.status, userId: closed.userId, queueId: closed.queueId };
    return { ticket: { ...closed, status: 'pending' as const, closedAt: null }, before };
  }
}
