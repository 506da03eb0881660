import { foldForSearch } from '@servicedesk/core';
import type { NewOrder, NewOrderItem, Order, OrderItem, OrderStatus } from '@servicedesk/core/orders/order';
import type { OrderQuery, Orders } from '@servicedesk/core/orders/ports';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldSql } from '../shared/search.js';
import { marks } from '../shared/sql.js';
import { isId, maybeNumber, maybeText, time, type Row } from './order-rows.js';

// --- orders ------------------------------------------------------------------------------------

/** What `update` writes, in the order of `changeValues`. */
const CHANGE_FIELDS = ['status', 'subtotal', 'discount', 'shipping_fee', 'total', 'payment_method', 'notes', 'address', 'updated_at'] as const;

const changeValues = (o: NewOrder) => [o.status, o.subtotal, o.discount, o.shippingFee, o.total, o.paymentMethod, o.notes, o.address, o.updatedAt];

const ORDER_COLUMNS = ['id', 'company_id', 'number', 'contact_id', 'ticket_id', 'user_id', 'currency', 'version', 'created_at', ...CHANGE_FIELDS];

const SELECT_ORDER = ORDER_COLUMNS.map((c) => `o.${c}`).join(', ');

function toOrder(r: Row): Order {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    number: Number(r.number),
    contactId: maybeNumber(r.contact_id),
    ticketId: maybeNumber(r.ticket_id),
    userId: maybeNumber(r.user_id),
    status: r.status as OrderStatus,
    currency: String(r.currency),
    subtotal: Number(r.subtotal),
    discount: Number(r.discount),
    shippingFee: Number(r.shipping_fee),
    total: Number(r.total),
    paymentMethod: maybeText(r.payment_method),
    notes: String(r.notes),
    address: maybeText(r.address),
    version: Number(r.version),
    createdAt: time(r.created_at),
    updatedAt: time(r.updated_at),
  };
}

const ITEM_FIELDS = ['company_id', 'order_id', 'product_id', 'name', 'sku', 'unit_price', 'quantity', 'total', 'reserved', 'position'] as const;

const itemValues = (i: NewOrderItem) => [i.companyId, i.orderId, i.productId, i.name, i.sku, i.unitPrice, i.quantity, i.total, i.reserved, i.position];

function toItem(r: Row): OrderItem {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    orderId: Number(r.order_id),
    productId: maybeNumber(r.product_id),
    name: String(r.name),
    sku: maybeText(r.sku),
    unitPrice: Number(r.unit_price),
    quantity: Number(r.quantity),
    total: Number(r.total),
    reserved: Number(r.reserved),
    position: Number(r.position),
  };
}

/** `orders` with `order_items` and the `order_numbers` counters, scoped by company. */
export class MikroOrmOrders extends MikroOrmRepository implements Orders {
  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    const [row] = await this.em.execute<Row[]>(`select ${SELECT_ORDER} from orders o where o.id = ? and o.company_id = ?`, [id, companyId]);
    return row ? toOrder(row) : null;
  }

  async findByIds(companyId: number, ids: readonly number[]) {
    const wanted = ids.filter(isId);
    if (!wanted.length) return [];
    const rows = await this.em.execute<Row[]>(`select ${SELECT_ORDER} from orders o where o.company_id = ? and o.id in (${marks(wanted.length)})`, [
      companyId,
      ...wanted,
    ]);
    return rows.map(toOrder);
  }

  async list(q: OrderQuery) {
    const where = ['o.company_id = ?'];
    const params: unknown[] = [q.companyId];
    if (q.status) {
      where.push('o.status = ?');
      params.push(q.status);
    }
    if (q.contactId !== undefined) {
      where.push('o.contact_id = ?');
      params.push(q.contactId);
    }
    if (q.from) {
      where.push('o.created_at >= ?');
      params.push(q.from);
    }
    if (q.to) {
      where.push('o.created_at < ?');
      params.push(q.to);
    }
    const term = q.search ? foldForSearch(q.search) : '';
    if (term) {
      const matches = [`${foldSql('c.name')} like ?`];
      params.push(likeTerm(term));
      if (/^\d+$/.test(term)) {
        matches.push('c.number like ?');
        params.push(likeTerm(term));
        // Longer digit runs are phone numbers, never an order number (an int4).
        if (term.length <= 9) {
          matches.push('o.number = ?');
          params.push(Number(term));
        }
      }
      where.push(`(${matches.join(' or ')})`);
    }
    const from = `from orders o${term ? ' left join contacts c on c.id = o.contact_id' : ''} where ${where.join(' and ')}`;
    const [counted] = await this.em.execute<Array<{ n: string | number }>>(`select count(*) as n ${from}`, params);
    const rows = await this.em.execute<Row[]>(`select ${SELECT_ORDER} ${from} order by o.number desc, o.id desc limit ? offset ?`, [
      ...params,
      q.page.limit,
      q.page.offset,
    ]);
    return { rows: rows.map(toOrder), count: Number(counted?.n ?? 0) };
  }

  async nextNumber(companyId: number) {
    const [row] = await this.em.execute<Array<{ last_number: number }>>(
      `insert into order_numbers (company_id, last_number) values (?, 1)
       on conflict (company_id) do update set last_number = order_numbers.last_number + 1 returning last_number`,
      [companyId],
    );
    return Number(row!.last_number);
  }

  async add(o: NewOrder): Promise<Order> {
    const [row] = await this.em.execute<Row[]>(
      `insert into orders (company_id, number, contact_id, ticket_id, user_id, currency, version, created_at, ${CHANGE_FIELDS.join(', ')})
       values (?, ?, ?, ?, ?, ?, ?, ?, ${marks(CHANGE_FIELDS.length)}) returning id`,
      [o.companyId, o.number, o.contactId, o.ticketId, o.userId, o.currency, o.version, o.createdAt, ...changeValues(o)],
    );
    return { ...o, id: Number(row!.id) };
  }

  async update(order: Order, expected: { status: OrderStatus; version: number }) {
    const rows = await this.em.execute<Row[]>(
      `update orders set ${CHANGE_FIELDS.map((f) => `${f} = ?`).join(', ')}, version = version + 1
       where id = ? and company_id = ? and status = ? and version = ? returning id`,
      [...changeValues(order), order.id, order.companyId, expected.status, expected.version],
    );
    return rows.length > 0;
  }

  async items(companyId: number, orderIds: readonly number[]) {
    const ids = orderIds.filter(isId);
    if (!ids.length) return [];
    const rows = await this.em.execute<Row[]>(
      `select id, ${ITEM_FIELDS.join(', ')} from order_items where company_id = ? and order_id in (${marks(ids.length)}) order by order_id, position`,
      [companyId, ...ids],
    );
    return rows.map(toItem);
  }

  async replaceItems(companyId: number, orderId: number, items: readonly NewOrderItem[]) {
    await this.em.execute('delete from order_items where company_id = ? and order_id = ?', [companyId, orderId]);
    if (!items.length) return [];
    const rows = await this.em.execute<Row[]>(
      `insert into order_items (${ITEM_FIELDS.join(', ')}) values ${items.map(() => `(${marks(ITEM_FIELDS.length)})`).join(', ')}
       returning id, ${ITEM_FIELDS.join(', ')}`,
      items.flatMap(itemValues),
    );
    return rows.map(toItem).sort((a, b) => a.position - b.position);
  }

  async remove(companyId: number, ids: readonly number[]) {
    const wanted = ids.filter(isId);
    if (!wanted.length) return [];
    // Locked in id order first: lines read afterwards are those of the rows being removed.
    const locked = await this.em.execute<Array<{ id: number }>>(
      `select id from orders where company_id = ? and id in (${marks(wanted.length)}) order by id for update`,
      [companyId, ...wanted],
    );
    if (!locked.length) return [];
    const lockedIds = locked.map((r) => Number(r.id));
    const items = await this.items(companyId, lockedIds);
    const rows = await this.em.execute<Row[]>(
      `delete from orders o where o.company_id = ? and o.id in (${marks(lockedIds.length)}) returning ${SELECT_ORDER}`,
      [companyId, ...lockedIds],
    );
    return rows
      .map(toOrder)
      .sort((a, b) => a.id - b.id)
      .map((order) => ({ order, items: items.filter((i) => i.orderId === order.id) }));
  }
}
