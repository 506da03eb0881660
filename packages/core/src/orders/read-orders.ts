import type { Contacts } from '../contacts/ports.js';
import { addDays, dayStartIn, parseDay } from '../dashboards/days.js';
import type { Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Order, OrderStatus } from './order.js';
import type { OrderLogView, OrderViews, OrderView } from './order-view.js';
import type { Orders } from './ports.js';

export interface OrderPage {
  orders: OrderView[];
  count: number;
  hasMore: boolean;
}

interface Deps {
  readonly orders: Orders;
  readonly contacts: Pick<Contacts, 'findById'>;
  readonly views: OrderViews;
  /** The company's time zone: date filters are whole days on its clock. */
  readonly timeZone: (companyId: number) => Promise<string>;
}

/** The company's order, or 404 `ERR_NO_ORDER_FOUND` (also for another company's). */
export async function findOrder(orders: Pick<Orders, 'findById'>, companyId: number, id: number): Promise<Order> {
  const found = await orders.findById(companyId, id);
  if (!found) throw new NotFoundError('ERR_NO_ORDER_FOUND');
  return found;
}

async function assertContact(contacts: Deps['contacts'], companyId: number, contactId: number): Promise<void> {
  if (!(await contacts.findById(companyId, contactId))) throw new NotFoundError('ERR_NO_CONTACT_FOUND');
}

function day(text: string | undefined): string | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  const parsed = parseDay(text.trim());
  if (!parsed) throw new ValidationError('ERR_INVALID_DATE');
  return parsed;
}

/**
 * A page of the company's orders, newest first (20 a page), any user of the company: by status,
 * contact (the company's, 404 otherwise), days of creation on the company's clock (`dateFrom` and
 * `dateTo` included), and `searchParam` (the number, or the contact's name or number).
 */
export class ListOrders {
  constructor(private readonly deps: Deps) {}

  async execute(input: {
    readonly actor: Actor;
    readonly status?: OrderStatus;
    readonly contactId?: number;
    readonly dateFrom?: string;
    readonly dateTo?: string;
    readonly searchParam?: string;
    readonly pageNumber?: number;
  }): Promise<OrderPage> {
    const { companyId } = input.actor;
    if (input.contactId !== undefined) await assertContact(this.deps.contacts, companyId, input.contactId);
    const fromDay = day(input.dateFrom);
    const toDay = day(input.dateTo);
    if (fromDay && toDay && fromDay > toDay) throw new ValidationError('ERR_INVALID_DATE_RANGE');
    const zone = fromDay || toDay ? await this.deps.timeZone(companyId) : '';
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.orders.list({
      companyId,
      page,
      ...(input.status ? { status: input.status } : {}),
      ...(input.contactId !== undefined ? { contactId: input.contactId } : {}),
      ...(fromDay ? { from: dayStartIn(fromDay, zone) } : {}),
      ...(toDay ? { to: dayStartIn(addDays(toDay, 1), zone) } : {}),
      ...(input.searchParam?.trim() ? { search: input.searchParam.trim() } : {}),
    });
    return { orders: await this.deps.views.many(companyId, result.rows), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

/** One contact's orders, newest first (20 a page): the side panel of a conversation. */
export class ListContactOrders {
  constructor(private readonly deps: Deps) {}

  async execute(input: { readonly actor: Actor; readonly contactId: number; readonly pageNumber?: number }): Promise<OrderPage> {
    const { companyId } = input.actor;
    await assertContact(this.deps.contacts, companyId, input.contactId);
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.orders.list({ companyId, page, contactId: input.contactId });
    return { orders: await this.deps.views.many(companyId, result.rows), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

export class ShowOrder {
  constructor(private readonly deps: Pick<Deps, 'orders' | 'views'>) {}

  async execute(input: { readonly actor: Actor; readonly orderId: number }): Promise<OrderView> {
    return this.deps.views.one(await findOrder(this.deps.orders, input.actor.companyId, input.orderId));
  }
}

/** What happened to an order, oldest first, each change with who made it. */
export class ListOrderLogs {
  constructor(private readonly deps: Pick<Deps, 'orders' | 'views'>) {}

  async execute(input: { readonly actor: Actor; readonly orderId: number }): Promise<OrderLogView[]> {
    const order = await findOrder(this.deps.orders, input.actor.companyId, input.orderId);
    return this.deps.views.logs(order.companyId, order.id);
  }
}
