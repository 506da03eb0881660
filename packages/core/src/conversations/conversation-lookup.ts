import type { Users } from '../identity/ports.js';
import { isAdmin, type Actor } from '../shared/actor.js';
import { ForbiddenError, NotFoundError, ValidationError } from '../shared/errors.js';
import type { Connection } from '../connections/connection.js';
import type { Connections } from '../connections/ports.js';
import type { Contact } from '../contacts/contact.js';
import type { Contacts } from '../contacts/ports.js';
import type { Message } from '../messages/message.js';
import type { Messages } from '../messages/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { Tickets } from '../tickets/ports.js';
import { assertMayChange, maySee, ticketAccess, visibleTicket } from '../tickets/ticket-access.js';

/**
 * An operator's conversation as the use cases that write in it read it, loaded and checked: the
 * ticket the actor sees, its connection and contact, the message quoted or changed. Each lookup
 * answers the error the routes document for what is missing or not the actor's.
 */
export class ConversationLookup {
  constructor(private readonly deps: { tickets: Tickets; users: Users; contacts: Contacts; connections: Connections; messages: Messages }) {}

  /** The ticket, when the actor may see it (see `visibleTicket`). */
  visibleTicket(actor: Actor, ticketId: number): Promise<Ticket> {
    return visibleTicket(this.deps, actor, ticketId);
  }

  /** The ticket as stored now (read again inside a transaction). */
  async current(ticket: Pick<Ticket, 'companyId' | 'id'>): Promise<Ticket> {
    const current = await this.deps.tickets.findById(ticket.companyId, ticket.id);
    if (!current) throw new NotFoundError('ERR_NO_TICKET_FOUND');
    return current;
  }

  async connection(companyId: number, connectionId: number): Promise<Connection> {
    const connection = await this.deps.connections.findById(companyId, connectionId);
    if (!connection) throw new NotFoundError('ERR_NO_CONNECTION_FOUND');
    return connection;
  }

  async contact(companyId: number, contactId: number): Promise<Contact> {
    const contact = await this.deps.contacts.findById(companyId, contactId);
    if (!contact) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
    return contact;
  }

  async message(companyId: number, messageId: string): Promise<Message> {
    const message = await this.deps.messages.findById(companyId, messageId);
    if (!message) throw new NotFoundError('ERR_NO_MESSAGE_FOUND');
    return message;
  }

  /** The message a reply quotes: one of the same conversation (null when none is quoted). */
  async quoted(ticket: Pick<Ticket, 'companyId' | 'contactId' | 'connectionId'>, quotedMsgId: string | null | undefined): Promise<Message | null> {
    const quoted = quotedMsgId ? await this.deps.messages.findById(ticket.companyId, quotedMsgId) : null;
    if (quotedMsgId && (!quoted || quoted.contactId !== ticket.contactId || quoted.connectionId !== ticket.connectionId)) {
      throw new ValidationError('ERR_QUOTED_MESSAGE_NOT_FOUND');
    }
    return quoted;
  }

  /** A message the actor may change: sent by the operators (users: by themselves) in a ticket they see. */
  async ownMessage(actor: Actor, messageId: string): Promise<{ message: Message; ticket: Ticket }> {
    const message = await this.message(actor.companyId, messageId);
    const ticket = await this.visibleTicket(actor, message.ticketId);
    if (!message.fromMe || (!isAdmin(actor) && message.userId !== actor.userId)) throw new ForbiddenError('ERR_NOT_OWN_MESSAGE');
    return { message, ticket };
  }

  /** The session connection and contact a command about a sent message goes to. */
  async sessionChannel(message: Message, unsupported: 'ERR_EDIT_NOT_SUPPORTED' | 'ERR_REVOKE_NOT_SUPPORTED'): Promise<{ connection: Connection; to: string }> {
    const connection = await this.connection(message.companyId, message.connectionId);
    if (connection.kind !== 'chatapp') throw new ValidationError(unsupported);
    const contact = await this.contact(message.companyId, message.contactId);
    return { connection, to: contact.number };
  }

  /** The contact's active ticket on the connection, if any, when the actor may see it and write in it. */
  async activeTicketFor(actor: Actor, contactId: number, connectionId: number): Promise<Ticket | null> {
    const existing = await this.deps.tickets.findActive(actor.companyId, contactId, connectionId);
    if (existing) {
      if (!maySee(await ticketAccess(this.deps.users, actor), existing)) throw new ForbiddenError('ERR_NO_PERMISSION');
      assertMayChange(actor, existing);
    }
    return existing;
  }
}
