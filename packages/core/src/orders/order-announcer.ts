import type { RealtimeEvents } from '../realtime/ports.js';
import type { Order } from './order.js';
import type { OrderEvent } from './order-events.js';
import type { OrderViews, OrderView } from './order-view.js';

/** Tells the company's users of an order's changes (`company-<id>-order`), as the views they read. */
export class OrderAnnouncer {
  constructor(private readonly deps: { readonly views: OrderViews; readonly realtime: RealtimeEvents<OrderEvent> }) {}

  /** The order as its readers see it. */
  view(order: Order): Promise<OrderView> {
    return this.deps.views.one(order);
  }

  /** Publishes the order's view with the change's action; answers that view. */
  async changed(action: 'create' | 'update', order: Order): Promise<OrderView> {
    const view = await this.deps.views.one(order);
    await this.publish(order.companyId, { action, order: view });
    return view;
  }

  /** The orders removed. */
  async removed(companyId: number, orderIds: readonly number[]): Promise<void> {
    await this.publish(companyId, { action: 'delete', orderIds });
  }

  private async publish(companyId: number, data: OrderEvent['data']): Promise<void> {
    await this.deps.realtime.publish(companyId, { entity: 'order', data });
  }
}
