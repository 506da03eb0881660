import type { Contacts } from '../contacts/ports.js';
import type { NewOrder, NewOrderItem, NewOrderLog, Order, OrderItem, OrderLog, OrderStatus } from '../orders/order.js';
import type { NewOrderSetting, OrderSetting } from '../orders/order-setting.js';
import type { OrderLogs, OrderQuery, Orders, OrderSettings } from '../orders/ports.js';
import { ConflictError } from '../shared/errors.js';
import { foldForSearch } from '../shared/text.js';
import { InMemoryTable, slice } from './table.js';

/** The order logs in memory, oldest first. */
export class InMemoryOrderLogs implements OrderLogs {
  readonly table = new InMemoryTable<OrderLog>();

  async add(log: NewOrderLog) {
    return this.table.insert(log);
  }
  async list(companyId: number, orderId: number) {
    return this.table
      .filter((l) => l.companyId === companyId && l.orderId === orderId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  }
  /** As the SQL foreign key does when an order goes. */
  dropOrder(orderId: number) {
    for (const log of this.table.filter((l) => l.orderId === orderId)) this.table.delete(log.id);
  }
}

/** Orders in memory, ordered and searched as the SQL adapter does; with the contacts, search reads their names and numbers. */
export class InMemoryOrders implements Orders {
  readonly table = new InMemoryTable<Order>();
  readonly lines = new InMemoryTable<OrderItem>();
  private readonly counters = new Map<number, number>();

  constructor(private readonly related: { logs?: InMemoryOrderLogs; contacts?: Pick<Contacts, 'findById'> } = {}) {}

  async findById(companyId: number, id: number) {
    return this.table.find((o) => o.id === id && o.companyId === companyId);
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    return this.table.filter((o) => o.companyId === companyId && ids.includes(o.id));
  }

  async list(q: OrderQuery) {
    const term = q.search ? foldForSearch(q.search) : '';
    const digits = /^\d+$/.test(term) ? term : null;
    const rows: Order[] = [];
    for (const o of this.table.filter((o) => o.companyId === q.companyId)) {
      if (q.status && o.status !== q.status) continue;
      if (q.contactId !== undefined && o.contactId !== q.contactId) continue;
      if (q.from && o.createdAt < q.from) continue;
      if (q.to && o.createdAt >= q.to) continue;
      if (term) {
        const contact = o.contactId === null ? null : await this.related.contacts?.findById(o.companyId, o.contactId);
        const named = contact ? foldForSearch(contact.name).includes(term) : false;
        const numbered = digits !== null && (String(o.number) === digits || (contact?.number.includes(digits) ?? false));
        if (!named && !numbered) continue;
      }
      rows.push(o);
    }
    return slice(
      rows.sort((a, b) => b.number - a.number || b.id - a.id),
      q.page,
    );
  }

  async nextNumber(companyId: number) {
    const next = (this.counters.get(companyId) ?? 0) + 1;
    this.counters.set(companyId, next);
    return next;
  }

  async add(order: NewOrder) {
    return this.table.insert(order);
  }

  async update(order: Order, expected: { status: OrderStatus; version: number }) {
    const stored = this.table.get(order.id);
    if (!stored || stored.companyId !== order.companyId || stored.status !== expected.status || stored.version !== expected.version) return false;
    const { status, subtotal, discount, shippingFee, total, paymentMethod, notes, address, updatedAt } = order;
    this.table.replace({ ...stored, status, subtotal, discount, shippingFee, total, paymentMethod, notes, address, updatedAt, version: stored.version + 1 });
    return true;
  }

  async items(companyId: number, orderIds: readonly number[]) {
    return this.lines.filter((i) => i.companyId === companyId && orderIds.includes(i.orderId)).sort((a, b) => a.orderId - b.orderId || a.position - b.position);
  }

  async replaceItems(companyId: number, orderId: number, items: readonly NewOrderItem[]) {
    for (const old of this.lines.filter((i) => i.companyId === companyId && i.orderId === orderId)) this.lines.delete(old.id);
    return items.map((i) => this.lines.insert(i));
  }

  async remove(companyId: number, ids: readonly number[]) {
    const gone: Array<{ order: Order; items: OrderItem[] }> = [];
    for (const order of this.table.filter((o) => o.companyId === companyId && ids.includes(o.id)).sort((a, b) => a.id - b.id)) {
      const items = await this.items(companyId, [order.id]);
      for (const item of items) this.lines.delete(item.id);
      this.related.logs?.dropOrder(order.id);
      this.table.delete(order.id);
      gone.push({ order, items });
    }
    return gone;
  }
}

/** Order settings in memory: one default row and one per connection per company, as the SQL unique indexes allow. */
export class InMemoryOrderSettings implements OrderSettings {
  readonly table = new InMemoryTable<OrderSetting>();

  async findById(companyId: number, id: number) {
    return this.table.find((s) => s.id === id && s.companyId === companyId);
  }
  async list(companyId: number) {
    return this.table.filter((s) => s.companyId === companyId).sort((a, b) => (a.connectionId ?? 0) - (b.connectionId ?? 0) || a.id - b.id);
  }
  async findFor(companyId: number, connectionId: number | null) {
    return this.table.find((s) => s.companyId === companyId && s.connectionId === connectionId);
  }
  async add(setting: NewOrderSetting) {
    if (await this.findFor(setting.companyId, setting.connectionId)) throw new ConflictError('ERR_ORDER_SETTING_EXISTS');
    return this.table.insert(setting);
  }
  async update(setting: OrderSetting) {
    const stored = this.table.get(setting.id);
    if (!stored || stored.companyId !== setting.companyId) return;
    const taken = await this.findFor(setting.companyId, setting.connectionId);
    if (taken && taken.id !== setting.id) throw new ConflictError('ERR_ORDER_SETTING_EXISTS');
    this.table.replace({ ...setting, companyId: stored.companyId, createdAt: stored.createdAt });
  }
  async remove(companyId: number, id: number) {
    if (!(await this.findById(companyId, id))) return false;
    this.table.delete(id);
    return true;
  }
}
