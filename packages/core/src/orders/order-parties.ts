import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';

/**
 * Whom an order is taken for: a contact of the company (404 `ERR_NO_CONTACT_FOUND`) and, when it
 * comes from a conversation, the company's ticket (404 `ERR_NO_TICKET_FOUND`) with that same contact
 * (`ERR_ORDER_TICKET_CONTACT_MISMATCH`), checked in that order.
 */
export class OrderParties {
  constructor(private readonly deps: { readonly contacts: Pick<Contacts, 'findById'>; readonly tickets: Pick<Tickets, 'findById'> }) {}

  async of(companyId: number, contactId: number, ticketId: number | null): Promise<{ contact: Contact; ticket: Ticket | null }> {
    const contact = await this.deps.contacts.findById(companyId, contactId);
    if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    const ticket = ticketId === null ? null : await this.deps.tickets.findById(companyId, ticketId);
    if (ticketId !== null && !ticket) throw new NotFoundError('ERR_NO_TICKET_FOUND');
    if (ticket && ticket.contactId !== contact.id) throw new ValidationError('ERR_ORDER_TICKET_CONTACT_MISMATCH');
    return { contact, ticket };
  }
}
