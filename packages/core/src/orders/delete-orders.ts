import type { Products } from '../catalog/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError } from '../shared/errors.js';
import type { Transaction } from '../shared/ports.js';
import { HOLDING_STATUSES } from './order.js';
import type { OrderAnnouncer } from './order-announcer.js';
import { heldStock, moveStock } from './order-lines.js';
import type { Orders } from './ports.js';

/**
 * Admins remove orders of their company: all of `orderIds` or none (one that is not the company's
 * is 404 `ERR_NO_ORDER_FOUND`). An order still holding stock (`new`, `confirmed`, `paid`) gives it
 * back in the same transaction; a shipped or delivered one's stock is gone with the goods.
 */
export class DeleteOrders {
  constructor(
    private readonly deps: {
      readonly orders: Pick<Orders, 'findByIds' | 'remove'>;
      readonly products: Pick<Products, 'moveStock'>;
      readonly announcer: Pick<OrderAnnouncer, 'removed'>;
      readonly tx: Transaction;
    },
  ) {}

  async execute(input: { readonly actor: Actor; readonly orderIds: readonly number[] }): Promise<number[]> {
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const ids = [...new Set(input.orderIds)];
    if (!ids.length) return [];
    const removed = await this.deps.tx.run(async () => {
      if ((await this.deps.orders.findByIds(companyId, ids)).length !== ids.length) throw new NotFoundError('ERR_NO_ORDER_FOUND');
      // One deleted meanwhile: the transaction writes nothing.
      const gone = await this.deps.orders.remove(companyId, ids);
      if (gone.length !== ids.length) throw new NotFoundError('ERR_NO_ORDER_FOUND');
      const held = heldStock(gone.filter((g) => HOLDING_STATUSES.includes(g.order.status)).flatMap((g) => g.items));
      await moveStock(this.deps.products, companyId, held);
      return gone.map((g) => g.order.id).sort((a, b) => a - b);
    });
    await this.deps.announcer.removed(companyId, removed);
    return removed;
  }
}
