import { formatPrice } from '../conversations/send-catalog.js';
import type { Message } from '../messages/message.js';
import type { OutboundMessages } from '../messages/outbound.js';
import { renderMessage, type MessageFacts } from '../schedules/message-variables.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Tickets } from '../tickets/ports.js';
import type { Ticket } from '../tickets/ticket.js';
import type { Order, OrderItem, ReachedStatus } from './order.js';
import type { OrderConversation } from './order-conversation.js';
import { applicableSetting } from './order-setting.js';
import type { OrderSettings } from './ports.js';
import type { StatusMessageFacts } from './status-message-facts.js';

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
  readonly conversation: OrderConversation;
  readonly facts: StatusMessageFacts;
  readonly tickets: Pick<Tickets, 'update'>;
  readonly orderSettings: Pick<OrderSettings, 'findFor'>;
  readonly outbound: OutboundMessages;
  readonly tx: Transaction;
  readonly clock: Clock;
  /** Tells the operators about the message and its ticket; called after the commit. */
  readonly announce: (ticket: Ticket, message: Message) => Promise<void>;
}

/**
 * Tells a contact that their order reached a status, when the order settings that apply give that
 * status a text: through the one send path, in the caller's transaction (the status change and its
 * message commit together), into the order's conversation (`OrderConversation`).
 */
export class OrderStatusMessages {
  constructor(private readonly deps: Deps) {}

  /** Sends the status's text, if any and if the order has a conversation; answers what was sent. */
  async send(order: Order, items: readonly OrderItem[], status: ReachedStatus, userId: number): Promise<{ messageId: string; ticketId: number } | null> {
    const { tickets, facts, outbound, clock } = this.deps;
    const ticket = await this.deps.conversation.of(order);
    if (!ticket || order.contactId === null) return null;
    const setting = await applicableSetting(this.deps.orderSettings, order.companyId, ticket.connectionId);
    const template = setting?.statusMessages[status] ?? '';
    if (!template.trim()) return null;
    const to = await facts.recipient(order.companyId, order.contactId, ticket);
    if (!to) return null;
    const now = clock.now();
    const body = renderStatusMessage(
      template,
      { order, items, paymentInstructions: setting?.paymentInstructions ?? '' },
      await facts.of(ticket, to, userId, now),
    ).trim();
    if (!body) return null;
    const message = await outbound.enqueue({ connection: to.connection, ticket, contact: to.contact, body, userId });
    const updated: Ticket = { ...ticket, lastMessage: body, updatedAt: now };
    await tickets.update(updated);
    this.deps.tx.afterCommit(() => {
      void this.deps.announce(updated, message).catch(() => undefined);
    });
    return { messageId: message.id, ticketId: ticket.id };
  }
}
