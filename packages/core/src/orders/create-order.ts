import type { Products } from '../catalog/ports.js';
import type { Actor } from '../shared/actor.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { cleanAddress, cleanAmount, cleanLines, cleanNotes, cleanPaymentMethod, totalsOf, type OrderItem, type OrderLineInput } from './order.js';
import type { OrderAnnouncer } from './order-announcer.js';
import { moveStock, priceLines, type PricedLine } from './order-lines.js';
import { applicableSetting, DEFAULT_ORDER_CURRENCY } from './order-setting.js';
import type { OrderParties } from './order-parties.js';
import type { OrderView } from './order-view.js';
import type { OrderLogs, Orders, OrderSettings } from './ports.js';

export interface CreateOrderInput {
  readonly actor: Actor;
  readonly contactId: number;
  /** The conversation it came from: the company's, with the same contact. */
  readonly ticketId?: number | null;
  readonly items: readonly OrderLineInput[];
  readonly discount?: number;
  readonly shippingFee?: number;
  readonly notes?: string;
  readonly address?: string | null;
  readonly paymentMethod?: string | null;
}

export interface OrderDeps {
  readonly orders: Orders;
  readonly logs: OrderLogs;
  readonly products: Pick<Products, 'findByIds' | 'moveStock'>;
  /** Publishes the changed order's view, and reads it. */
  readonly announcer: OrderAnnouncer;
  readonly tx: Transaction;
  readonly clock: Clock;
}

/** What a log row keeps of the lines: enough to read the order as it was. */
export const linesOfLog = (lines: ReadonlyArray<PricedLine | OrderItem>) =>
  lines.map((l) => ({ productId: l.productId, name: l.name, unitPrice: l.unitPrice, quantity: l.quantity, total: l.total }));

/**
 * Any user of the company takes an order for a contact (the company's), from a conversation or
 * not. Its currency is that of the order settings applying to the conversation's connection (else
 * the company's default row, else BRL); lines are priced from the catalog; the stock of products
 * that track it is taken in the same transaction as the order, its number and its `created` log —
 * a product short of stock (422 `ERR_ORDER_OUT_OF_STOCK`, naming it) leaves nothing written.
 */
export class CreateOrder {
  constructor(private readonly deps: OrderDeps & { readonly orderSettings: Pick<OrderSettings, 'findFor'>; readonly parties: OrderParties }) {}

  async execute(input: CreateOrderInput): Promise<OrderView> {
    const { orders, logs, products, tx, clock } = this.deps;
    const { companyId, userId } = input.actor;
    const lines = cleanLines(input.items);
    const discount = cleanAmount(input.discount ?? 0);
    const shippingFee = cleanAmount(input.shippingFee ?? 0);
    const notes = cleanNotes(input.notes ?? '');
    const address = cleanAddress(input.address ?? null);
    const paymentMethod = cleanPaymentMethod(input.paymentMethod ?? null);
    const order = await tx.run(async () => {
      const { contact, ticket } = await this.deps.parties.of(companyId, input.contactId, input.ticketId ?? null);
      const setting = await applicableSetting(this.deps.orderSettings, companyId, ticket?.connectionId ?? null);
      const currency = setting?.currency ?? DEFAULT_ORDER_CURRENCY;
      const priced = await priceLines(products, companyId, currency, lines);
      const totals = totalsOf(
        priced.lines.map((l) => l.total),
        discount,
        shippingFee,
      );
      // Stock first, the number last: the company's counter (locked until the commit) is not held while products are waited for.
      await moveStock(products, companyId, priced.stock, priced.named);
      const now = clock.now();
      const added = await orders.add({
        companyId,
        number: await orders.nextNumber(companyId),
        contactId: contact.id,
        ticketId: ticket?.id ?? null,
        userId,
        status: 'new',
        currency,
        ...totals,
        paymentMethod,
        notes,
        address,
        version: 1,
        createdAt: now,
        updatedAt: now,
      });
      await orders.replaceItems(
        companyId,
        added.id,
        priced.lines.map((l) => ({ ...l, orderId: added.id })),
      );
      await logs.add({
        companyId,
        orderId: added.id,
        userId,
        type: 'created',
        from: null,
        to: 'new',
        data: { items: linesOfLog(priced.lines), currency, ...totals },
        createdAt: now,
      });
      return added;
    });
    return this.deps.announcer.changed('create', order);
  }
}
