import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Message } from '../messages/message.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Ticket } from './ticket.js';

/** A connection's farewell message, said when a ticket closes. */
export class TicketFarewell {
  constructor(
    private readonly deps: {
      readonly connections: Pick<Connections, 'findById'>;
      readonly contacts: Pick<Contacts, 'findById'>;
      readonly outbound: OutboundMessages;
    },
  ) {}

  /**
   * Sent by `userId` through the outbox in the caller's transaction (never to groups); the ticket's
   * last message becomes it. Answers the messages sent (none without a farewell or a contact).
   */
  async send(ticket: Ticket, userId: number): Promise<Message[]> {
    const connection = await this.deps.connections.findById(ticket.companyId, ticket.connectionId);
    if (!connection?.farewellMessage || ticket.isGroup) return [];
    const contact = await this.deps.contacts.findById(ticket.companyId, ticket.contactId);
    if (!contact) return [];
    const message = await this.deps.outbound.enqueue({ connection, ticket, contact, body: connection.farewellMessage, userId });
    ticket.lastMessage = connection.farewellMessage;
    return [message];
  }
}
