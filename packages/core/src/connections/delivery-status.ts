/** Delivery moves only forward along this order; `failed` is terminal and carries a reason. */
export const DELIVERY_ORDER = ['pending', 'sent', 'delivered', 'read', 'played'] as const;

export type DeliveryStatus = (typeof DELIVERY_ORDER)[number] | 'failed';

/** The status after `next` arrives: never backwards, whatever order the provider reports in. */
export function advanceDelivery(current: DeliveryStatus, next: DeliveryStatus): DeliveryStatus {
  if (current === 'failed') return current;
  if (next === 'failed') return current === 'pending' ? 'failed' : current;
  return DELIVERY_ORDER.indexOf(next) > DELIVERY_ORDER.indexOf(current) ? next : current;
}
