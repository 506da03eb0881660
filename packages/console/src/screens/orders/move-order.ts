import type { OrderStatus } from '@servicedesk/core/orders/order';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { strings } from './strings.js';

type Order = Schema<'Order'>;

/** Says how a move went: a success to screen readers, a refusal in words above the board. */
export type Report = (text: string, refused: boolean) => void;

/**
 * Moving an order (`PUT /orders/:orderId` with its next `status`): only the moves the server's
 * status machine allows are offered (`NEXT_STATUSES`); a refusal (another change came first) is
 * said on the card and the board reads the order again.
 */
export function useMoveOrder(report?: Report) {
  const { t } = useScreenStrings('orders', strings);
  const { api } = useServices();
  const client = useQueryClient();
  // Said from here, not from the card: the card may have left its column (a frame moved it) before the answer.
  return useMutation({
    mutationFn: ({ order, status }: { order: Order; status: OrderStatus }) =>
      must(api.PUT('/orders/{orderId}', { params: { path: { orderId: order.id } }, body: { status } })),
    onSuccess: (_, { order, status }) => report?.(t('moved', { number: order.number, status: t(`status.${status}`) }), false),
    onError: (err, { order }) => report?.(t('moveRefused', { number: order.number, reason: errorText(t, err) }), true),
    onSettled: () => void client.invalidateQueries({ queryKey: keys.orders }),
  });
}
