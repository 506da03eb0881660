import type { Contacts } from '../contacts/ports.js';
import type { Users } from '../identity/ports.js';
import type { Order, OrderItem, OrderLog, OrderLogType, OrderStatus } from './order.js';
import type { OrderLogs, Orders } from './ports.js';

export interface OrderItemView {
  id: number;
  productId: number | null;
  name: string;
  sku: string | null;
  unitPrice: number;
  quantity: number;
  total: number;
}

/** An order as the API shows it: its lines, its contact and its creator named. */
export interface OrderView {
  id: number;
  number: number;
  companyId: number;
  contactId: number | null;
  contact: { id: number; name: string; number: string } | null;
  ticketId: number | null;
  userId: number | null;
  user: { id: number; name: string } | null;
  status: OrderStatus;
  currency: string;
  subtotal: number;
  discount: number;
  shippingFee: number;
  total: number;
  paymentMethod: string | null;
  notes: string;
  address: string | null;
  items: OrderItemView[];
  createdAt: string;
  updatedAt: string;
}

export interface OrderLogView {
  id: number;
  orderId: number;
  userId: number | null;
  user: { id: number; name: string } | null;
  type: OrderLogType;
  from: string | null;
  to: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

const itemView = (i: OrderItem): OrderItemView => ({
  id: i.id,
  productId: i.productId,
  name: i.name,
  sku: i.sku,
  unitPrice: i.unitPrice,
  quantity: i.quantity,
  total: i.total,
});

/** Presents orders and their logs, reading each page's lines, contacts and users in a few queries. */
export class OrderViews {
  constructor(
    private readonly deps: {
      orders: Pick<Orders, 'items'>;
      logs: Pick<OrderLogs, 'list'>;
      contacts: Pick<Contacts, 'findByIds'>;
      users: Pick<Users, 'findById'>;
    },
  ) {}

  private async userNames(companyId: number, ids: ReadonlyArray<number | null>): Promise<Map<number, { id: number; name: string }>> {
    const names = new Map<number, { id: number; name: string }>();
    for (const id of new Set(ids.filter((i): i is number => i !== null))) {
      const user = await this.deps.users.findById(companyId, id);
      if (user) names.set(id, { id: user.id, name: user.name });
    }
    return names;
  }

  async many(companyId: number, orders: readonly Order[]): Promise<OrderView[]> {
    if (orders.length === 0) return [];
    const items = await this.deps.orders.items(
      companyId,
      orders.map((o) => o.id),
    );
    const contactIds = [...new Set(orders.flatMap((o) => (o.contactId === null ? [] : [o.contactId])))];
    const contacts = new Map((contactIds.length ? await this.deps.contacts.findByIds(companyId, contactIds) : []).map((c) => [c.id, c]));
    const users = await this.userNames(
      companyId,
      orders.map((o) => o.userId),
    );
    return orders.map((o) => {
      const contact = o.contactId === null ? undefined : contacts.get(o.contactId);
      return {
        id: o.id,
        number: o.number,
        companyId: o.companyId,
        contactId: o.contactId,
        contact: contact ? { id: contact.id, name: contact.name, number: contact.number } : null,
        ticketId: o.ticketId,
        userId: o.userId,
        user: o.userId === null ? null : (users.get(o.userId) ?? null),
        status: o.status,
        currency: o.currency,
        subtotal: o.subtotal,
        discount: o.discount,
        shippingFee: o.shippingFee,
        total: o.total,
        paymentMethod: o.paymentMethod,
        notes: o.notes,
        address: o.address,
        items: items.filter((i) => i.orderId === o.id).map(itemView),
        createdAt: o.createdAt.toISOString(),
        updatedAt: o.updatedAt.toISOString(),
      };
    });
  }

  async one(order: Order): Promise<OrderView> {
    return (await this.many(order.companyId, [order]))[0]!;
  }

  async logs(companyId: number, orderId: number): Promise<OrderLogView[]> {
    const logs: OrderLog[] = await this.deps.logs.list(companyId, orderId);
    const users = await this.userNames(
      companyId,
      logs.map((l) => l.userId),
    );
    return logs.map((l) => ({
      id: l.id,
      orderId: l.orderId,
      userId: l.userId,
      user: l.userId === null ? null : (users.get(l.userId) ?? null),
      type: l.type,
      from: l.from,
      to: l.to,
      data: l.data,
      createdAt: l.createdAt.toISOString(),
    }));
  }
}
