import type { ContactPresenceEvent } from '../connections/channel-messages.js';
import type { Contacts } from '../contacts/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { ContactTypingEvent } from '../tickets/ticket-events.js';

/**
 * A contact's typing, for the operators of its open or pending ticket on that connection only:
 * nothing is stored, and without such a ticket (a contact nobody talks with now) it is dropped.
 */
export class ContactTyping {
  constructor(
    private readonly deps: {
      contacts: Pick<Contacts, 'findByNumber'>;
      tickets: Pick<Tickets, 'findActive'>;
      realtime: RealtimeEvents<ContactTypingEvent>;
    },
  ) {}

  async tell(e: ContactPresenceEvent): Promise<void> {
    const { contacts, tickets } = this.deps;
    const contact = await contacts.findByNumber(e.companyId, e.from);
    if (!contact) return;
    const ticket = await tickets.findActive(e.companyId, contact.id, e.chatappId);
    if (!ticket || (ticket.status !== 'open' && ticket.status !== 'pending')) return;
    await this.deps.realtime.publish(e.companyId, {
      entity: 'contactTyping',
      data: { action: 'update', ticketId: ticket.id, contactId: contact.id, state: e.state },
      scope: { id: ticket.id, queueId: ticket.queueId, userId: ticket.userId, status: ticket.status },
    });
  }
}
