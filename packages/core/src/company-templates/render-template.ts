import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import { renderMessage, type MessageFacts } from '../schedules/message-variables.js';
import { companyTimeZone } from '../settings/company-time-zone.js';
import type { Settings } from '../settings/ports.js';
import type { Actor } from '../shared/actor.js';
import type { Companies } from '../tenancy/ports.js';
import type { Tickets } from '../tickets/ports.js';
import { visibleTicket } from '../tickets/ticket-access.js';

export interface TicketFactsDeps {
  readonly tickets: Tickets;
  readonly users: Users;
  readonly contacts: Pick<Contacts, 'findById'>;
  readonly connections: Pick<Connections, 'findById'>;
  readonly queues: Pick<Queues, 'findById'>;
  readonly companies: Pick<Companies, 'findById'>;
  readonly settings: Pick<Settings, 'get'>;
}

/**
 * A template's text as it would be sent in a ticket the caller may read (404 `ERR_NO_TICKET_FOUND`,
 * 403 `ERR_NO_PERMISSION` otherwise): the scheduled messages' variables (`renderMessage`) filled with
 * the ticket's contact, queue and connection, the caller as `{{userName}}`, `at` on the company's clock.
 */
export class TicketTemplateRenderer {
  constructor(private readonly deps: TicketFactsDeps) {}

  async render(actor: Actor, ticketId: number, text: string, at: Date): Promise<string> {
    const { deps } = this;
    const ticket = await visibleTicket(deps, actor, ticketId);
    const [contact, connection, queue, company, user, timeZone] = await Promise.all([
      deps.contacts.findById(ticket.companyId, ticket.contactId),
      deps.connections.findById(ticket.companyId, ticket.connectionId),
      ticket.queueId === null ? null : deps.queues.findById(ticket.companyId, ticket.queueId),
      deps.companies.findById(ticket.companyId),
      deps.users.findById(ticket.companyId, actor.userId),
      companyTimeZone(deps.settings, ticket.companyId),
    ]);
    const facts: MessageFacts = {
      contactName: contact?.name ?? '',
      userName: user?.name ?? '',
      ticketId: ticket.id,
      queueName: queue?.name ?? '',
      connectionName: connection?.name ?? '',
      companyName: company?.name ?? '',
      at,
      timeZone,
    };
    return renderMessage(text, facts);
  }
}
