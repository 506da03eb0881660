import type { Connections } from '../connections/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { Order } from './order.js';

/** The conversation an order's news goes to. */
export class OrderConversation {
  constructor(private readonly deps: { readonly tickets: Pick<Tickets, 'findById' | 'findActive'>; readonly connections: Pick<Connections, 'list'> }) {}

  /**
   * Its own ticket while that is open; else the contact's active ticket on the same connection, or
   * that ticket closed (the message joins its history). An order without a ticket: the contact's
   * active ticket on a connection, the default one first.
   */
  async of(order: Order): Promise<Ticket | null> {
    const { tickets, connections } = this.deps;
    if (order.contactId === null) return null;
    const own = order.ticketId === null ? null : await tickets.findById(order.companyId, order.ticketId);
    if (own && own.status !== 'closed') return own;
    if (own) return (await tickets.findActive(order.companyId, order.contactId, own.connectionId)) ?? own;
    const ordered = (await connections.list(order.companyId)).sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.id - b.id);
    for (const connection of ordered) {
      const active = await tickets.findActive(order.companyId, order.contactId, connection.id);
      if (active) return active;
    }
    return null;
  }
}
