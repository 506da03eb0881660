import type { RealtimeEventOf } from '../realtime/ports.js';
import type { OrderView } from './order-view.js';

/** `company-<id>-order`: an order was created, changed (its status too) or removed. */
export type OrderEvent = RealtimeEventOf<
  'order',
  | { readonly action: 'create'; readonly order: OrderView }
  | { readonly action: 'update'; readonly order: OrderView }
  | { readonly action: 'delete'; readonly orderIds: readonly number[] }
>;
