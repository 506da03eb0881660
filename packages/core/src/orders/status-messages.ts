import type { Connections } from '../connections/ports.js';
import type { Contacts } from '../contacts/ports.js';
import { formatPrice } from '../conversations/send-catalog.js';
import type { Users } from '../identity/ports.js';
import type { Message } from '../messages/message.js';
import type { OutboundMessages } from '../messages/outbound.js';
import type { Queues } from '../queues/ports.js';
import { renderMessage, type MessageFacts } from '../schedules/message-variables.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Companies } from '../tenancy/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { Order, OrderItem, ReachedStatus } from './order.js';
import { applicableSetting } from './order-setting.js';
import type { OrderSettings } from './ports.js';

/** What an order's message may name besides the scheduled messages' variables (`{{name}}`, `{{userName}}`…). */
export interface OrderFacts {
  readonly order: Order;
  readonly items: readonly OrderItem[];
  readonly paymentInstructions: string;
}

/**
 * A status text with its order's variables — `{{number}}`, `{{total}}`, `{{subtotal}}`,
 * `{{discount}}`, `{{shipping}}`, `{{items}}` (one line per item), `{{payment}}` (the payment
 * instructions), `{{paymentMethod}}`, `{{address}}` — and those of scheduled messages, in one pass
 * (a value is never read again for variables); any other `{{…}}` is left as written.
 */
export function renderStatusMessage(template: string, o: OrderFacts, facts: MessageFacts): string {
  const money = (minor: number) => formatPrice(minor, o.order.currency);
  const values: Record<string, string> = {
    number: String(o.order.number),
    total: money(o.order.total),
    subtotal: money(o.order.subtotal),
    discount: money(o.order.discount),
    shipping: money(o.order.shippingFee),
    items: o.items.map((i) => `${i.quantity}x ${i.name} — ${money(i.total)}`).join('\n'),
    payment: o.paymentInstructions,
    paymentmethod: o.order.paymentMethod ?? '',
    address: o.order.address ?? '',
  };
  return template.replace(/\{\{\s*([A-Za-z_]{1,32})\s*\}\}/g, (whole, key: string) => values[key.toLowerCase()] ?? renderMessage(whole, facts));
}

interface Deps {
  readonly tickets: Pick<Tickets, 'findById' | 'findActive' | 'update'>;
  readonly contacts: Pick<Contacts, 'findById'>;
  readonly connections: Pick<Connections, 'findById' | 'list'>;
  readonly users: Pick<Users, 'findById'>;
  readonly queues: Pick<Queues, 'findById'>;
  readonly companies: Pick<Companies, 'findById'>;
  readonly orderSettings: Pick<OrderSettings, 'findFor'>;
  readonly outbound: OutboundMessages;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly timeZone: (companyId: number) => Promise<string>;
  /** Tells the operators about the message and its ticket; called after the commit. */
  readonly announce: (ticket: Ticket, message: Message) => Promise<void>;
}

/**
 * Tells a contact that their order reached a status, when the order settings that apply give that
 * status a text: through the one send path, in the caller's transaction (the status change and its
 * message commit together), into the order's conversation.
 */
export class OrderStatusMessages {
  constructor(private readonly deps: Deps) {}

  /**
   * The conversation an order's news goes to: its own ticket while that is open; else the contact's
   * active ticket on the same connection, or that ticket closed (the message joins its history).
   * An order without a ticket: the contact's active ticket on a connection, the default one first.
   */
  async ticketFor(order: Order): Promise<Ticket | null> {
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

  /** Sends the status's text, if any and if the order has a conversation; answers what was sent. */
  async send(order: Order, items: readonly OrderItem[], status: ReachedStatus, userId: number): Promise<{ messageId: string; ticketId: number } | null> {
    const { tickets, contacts, connections, users, queues, companies, outbound, clock } = this.deps;
    const ticket = await this.ticketFor(order);
    if (!ticket || order.contactId === null) return null;
    const setting = await applicableSetting(this.deps.orderSettings, order.companyId, ticket.connectionId);
    const template = setting?.statusMessages[status] ?? '';
    if (!template.trim()) return null;
    const [contact, connection] = await Promise.all([
      contacts.findById(order.companyId, order.contactId),
      connections.findById(order.companyId, ticket.connectionId),
    ]);
    if (!contact || !connection) return null;
    const now = clock.now();
    const queue = ticket.queueId === null ? null : await queues.findById(order.companyId, ticket.queueId);
    const body = renderStatusMessage(
      template,
      { order, items, paymentInstructions: setting?.paymentInstructions ?? '' },
      {
        contactName: contact.name,
        userName: (await users.findById(order.companyId, userId))?.name ?? '',
        ticketId: ticket.id,
        queueName: queue?.name ?? '',
        connectionName: connection.name,
        companyName: (await companies.findById(order.companyId))?.name ?? '',
        at: now,
        timeZone: await this.deps.timeZone(order.companyId),
      },
    ).trim();
    if (!body) return null;
    const message = await outbound.enqueue({ connection, ticket, contact, body, userId });
    const updated: Ticket = { ...ticket, lastMessage: body, updatedAt: now };
    await tickets.update(updated);
    this.deps.tx.afterCommit(() => {
      void this.deps.announce(updated, message).catch(() => undefined);
    });
    return { messageId: message.id, ticketId: ticket.id };
  }
}
