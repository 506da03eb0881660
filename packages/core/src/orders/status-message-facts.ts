import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import type { MessageFacts } from '../schedules/message-variables.js';
import type { Companies } from '../tenancy/ports.js';
import type { Ticket } from '../tickets/ticket.js';

/**
 * What an order's status message is sent to and names: the contact and the conversation's
 * connection, and the scheduled messages' variables (the sender, queue, company, the company's clock).
 */
export class StatusMessageFacts {
  constructor(
    private readonly deps: {
      readonly contacts: Pick<Contacts, 'findById'>;
      readonly connections: Pick<Connections, 'findById'>;
      readonly users: Pick<Users, 'findById'>;
      readonly queues: Pick<Queues, 'findById'>;
      readonly companies: Pick<Companies, 'findById'>;
      readonly timeZone: (companyId: number) => Promise<string>;
    },
  ) {}

  /** The contact and the ticket's connection, or null when either is gone. */
  async recipient(companyId: number, contactId: number, ticket: Ticket): Promise<{ contact: Contact; connection: Connection } | null> {
    const [contact, connection] = await Promise.all([
      this.deps.contacts.findById(companyId, contactId),
      this.deps.connections.findById(companyId, ticket.connectionId),
    ]);
    return contact && connection ? { contact, connection } : null;
  }

  /** The variables of a message sent by `userId` at `at` in the ticket, to the contact on the connection. */
  async of(ticket: Ticket, to: { contact: Contact; connection: Connection }, userId: number, at: Date): Promise<MessageFacts> {
    const { users, queues, companies } = this.deps;
    const { companyId } = ticket;
    const queue = ticket.queueId === null ? null : await queues.findById(companyId, ticket.queueId);
    return {
      contactName: to.contact.name,
      userName: (await users.findById(companyId, userId))?.name ?? '',
      ticketId: ticket.id,
      queueName: queue?.name ?? '',
      connectionName: to.connection.name,
      companyName: (await companies.findById(companyId))?.name ?? '',
      at,
      timeZone: await this.deps.timeZone(companyId),
    };
  }
}
