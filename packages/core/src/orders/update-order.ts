import type { Actor } from '../shared/actor.js';
import { ConflictError } from '../shared/errors.js';
import {
  cleanAddress,
  cleanAmount,
  cleanLines,
  cleanNotes,
  cleanPaymentMethod,
  NEXT_STATUSES,
  totalsOf,
  type NewOrderLog,
  type Order,
  type OrderItem,
  type OrderLineInput,
  type OrderStatus,
} from './order.js';
import { linesOfLog, type OrderDeps } from './create-order.js';
import { heldStock, moveStock, priceLines, type PricedLines } from './order-lines.js';
import type { OrderView } from './order-view.js';
import { findOrder } from './read-orders.js';
import type { OrderStatusMessages } from './status-messages.js';

export interface UpdateOrderInput {
  readonly actor: Actor;
  readonly orderId: number;
  readonly status?: OrderStatus;
  /** The order's lines, all of them (only while `new`). */
  readonly items?: readonly OrderLineInput[];
  readonly discount?: number;
  readonly shippingFee?: number;
  readonly notes?: string;
  readonly address?: string | null;
  readonly paymentMethod?: string | null;
}

const conflict = () => new ConflictError('ERR_ORDER_STATUS_CONFLICT');

/**
 * Any user of the company changes an order. Lines, discount and shipping fee change only while it
 * is `new` (the totals are what the contact confirmed afterwards); address and payment method until
 * it is delivered or cancelled; notes always. The status moves along the machine (`NEXT_STATUSES`).
 * Everything is one conditional write on the status and version the change was based on — another
 * write first is 409 `ERR_ORDER_STATUS_CONFLICT`, as is a change its status does not allow, or a
 * status the order already has asked with no other change (a repeated move) — with
 * its stock moves (a cancel gives the stock back), a log row per kind of change, and the status's
 * message to the contact when the order settings give it one, all in one transaction.
 */
export class UpdateOrder {
  constructor(private readonly deps: OrderDeps & { readonly messages: Pick<OrderStatusMessages, 'send'> }) {}

  async execute(input: UpdateOrderInput): Promise<OrderView> {
    const { orders, products, tx, clock } = this.deps;
    const { companyId, userId } = input.actor;
    const asked = input.items === undefined ? undefined : cleanLines(input.items);
    const changed = await tx.run(async () => {
      const current = await findOrder(orders, companyId, input.orderId);
      const items = await orders.items(companyId, [current.id]);
      const next: Order = { ...current };
      const now = clock.now();
      const log = (entry: Pick<NewOrderLog, 'type' | 'from' | 'to' | 'data'>) => ({ ...entry, companyId, orderId: current.id, userId, createdAt: now });
      const entries: NewOrderLog[] = [];
      let priced: PricedLines | null = null;
      if (asked !== undefined || input.discount !== undefined || input.shippingFee !== undefined) {
        const repriced = asked === undefined ? null : await priceLines(products, companyId, current.currency, asked, items);
        priced = repriced && !sameLines(repriced, items) ? repriced : null;
        const totals = totalsOf(
          (priced?.lines ?? items).map((l) => l.total),
          cleanAmount(input.discount ?? current.discount),
          cleanAmount(input.shippingFee ?? current.shippingFee),
        );
        if (priced || totals.discount !== current.discount || totals.shippingFee !== current.shippingFee) {
          // A form sent back whole repeats the lines: only a change is refused once the order left `new`.
          if (current.status !== 'new') throw conflict();
          Object.assign(next, totals);
          entries.push(
            log({
              type: 'items',
              from: String(current.total),
              to: String(next.total),
              data: { ...(priced ? { items: linesOfLog(priced.lines) } : {}), ...totals },
            }),
          );
        }
      }
      const details = this.details(current, input);
      if (Object.keys(details).length) {
        Object.assign(next, Object.fromEntries(Object.entries(details).map(([k, v]) => [k, v.to])));
        entries.push(log({ type: 'note', from: null, to: null, data: details }));
      }
      const asksMove = input.status !== undefined && input.status !== current.status;
      const moved = asksMove ? (NEXT_STATUSES[current.status].find((s) => s === input.status) ?? null) : null;
      if (asksMove && moved === null) throw conflict();
      if (moved !== null) next.status = moved;
      if (!entries.length && moved === null) {
        // Asking for the status the order already has, with nothing else to change, is a move made from a
        // status it has left (another user's move came first): the same 409 however the two interleaved.
        if (input.status !== undefined) throw conflict();
        return null;
      }
      next.updatedAt = now;
      if (!(await orders.update(next, { status: current.status, version: current.version }))) throw conflict();
      next.version = current.version + 1;
      let lines: readonly OrderItem[] = items;
      if (priced) {
        await moveStock(products, companyId, priced.stock, priced.named);
        lines = await orders.replaceItems(
          companyId,
          current.id,
          priced.lines.map((l) => ({ ...l, orderId: current.id })),
        );
      }
      if (moved === 'cancelled') await moveStock(products, companyId, heldStock(lines));
      if (moved !== null) {
        const sent = await this.deps.messages.send(next, lines, moved, userId);
        entries.push(log({ type: 'status', from: current.status, to: moved, data: { message: sent } }));
      }
      for (const entry of entries) await this.deps.logs.add(entry);
      return next;
    });
    if (changed === null) return this.deps.announcer.view(await findOrder(orders, companyId, input.orderId));
    return this.deps.announcer.changed('update', changed);
  }

  /** The details that change (`{ field: { from, to } }`); address and payment method only before the order is settled. */
  private details(current: Order, input: UpdateOrderInput): Record<string, { from: string | null; to: string | null }> {
    const changes: Record<string, { from: string | null; to: string | null }> = {};
    const settled = current.status === 'delivered' || current.status === 'cancelled';
    if (input.notes !== undefined) {
      const notes = cleanNotes(input.notes);
      if (notes !== current.notes) changes.notes = { from: current.notes, to: notes };
    }
    if (input.address !== undefined) {
      const address = cleanAddress(input.address);
      if (address !== current.address) changes.address = { from: current.address, to: address };
    }
    if (input.paymentMethod !== undefined) {
      const method = cleanPaymentMethod(input.paymentMethod);
      if (method !== current.paymentMethod) changes.paymentMethod = { from: current.paymentMethod, to: method };
    }
    if (settled && (changes.address || changes.paymentMethod)) throw conflict();
    return changes;
  }
}

/** Whether the lines asked for are those the order has, in the same order. */
function sameLines(priced: PricedLines, items: readonly OrderItem[]): boolean {
  return priced.lines.length === items.length && priced.lines.every((l, i) => l.productId === items[i]!.productId && l.quantity === items[i]!.quantity);
}
