import { NEXT_STATUSES } from '@servicedesk/core/orders/order';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Dialog } from 'radix-ui';
import { type FormEvent, useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, Field, FormError, refusalOf } from '../../ui/form.js';
import { relativeTime } from '../../ui/format.js';
import { formatMoney } from '../catalog/money.js';
import { useMoveOrder } from './move-order.js';
import { strings } from './strings.js';

type Order = Schema<'Order'>;
type OrderLog = Schema<'OrderLog'>;

const FIELD_OF = { ERR_ORDER_INVALID_DETAILS: 'notes' } as const;

/**
 * One order: its lines and totals in its currency, its contact and conversation, the moves its
 * status allows, its details (notes always; address and payment method until it is settled) and its
 * log, all read again on its `order` frames. Not a FormDialog: the form is one part of it.
 */
export function OrderDialog({ orderId, close }: { orderId: number; close: () => void }) {
  const { t, i18n } = useScreenStrings('orders', strings);
  const { api } = useServices();
  const order = useQuery({
    queryKey: [...keys.orders, 'one', orderId],
    queryFn: () => must(api.GET('/orders/{orderId}', { params: { path: { orderId } } })),
  });
  const logs = useQuery({
    queryKey: [...keys.orders, 'logs', orderId],
    queryFn: () => must(api.GET('/orders/{orderId}/logs', { params: { path: { orderId } } })),
  });
  const move = useMoveOrder();
  const session = useSession();
  const client = useQueryClient();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const remove = useMutation({
    mutationFn: () => must(api.DELETE('/orders', { body: { ids: [orderId] } })),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.orders });
      close();
    },
  });
  const o = order.data;
  const money = (minor: number) => (o ? formatMoney(minor, o.currency, i18n.language) : '');

  return (
    <Dialog.Root open onOpenChange={(open) => !open && close()}>
      <Dialog.Portal>
        <Dialog.Overlay className="overlay" />
        <Dialog.Content className="dialog order-dialog">
          <Dialog.Title>{o ? t('orderTitle', { number: o.number }) : t('loading')}</Dialog.Title>
          <Dialog.Description className="muted">
            {o ? t('orderSummary', { status: t(`status.${o.status}`), contact: o.contact?.name ?? t('noContact'), user: o.user?.name ?? '—' }) : ''}
          </Dialog.Description>
          {order.error && <FormError text={errorText(t, order.error)} />}
          {o && (
            <>
              {o.ticketId !== null && (
                <p>
                  <Link to="/tickets/$ticketId" params={{ ticketId: String(o.ticketId) }} onClick={close}>
                    {t('openConversation')}
                  </Link>
                </p>
              )}
              <table className="admin-table order-lines">
                <caption className="visually-hidden">{t('lines')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('columns.product')}</th>
                    <th scope="col" className="number">
                      {t('columns.quantity')}
                    </th>
                    <th scope="col" className="number">
                      {t('columns.unitPrice')}
                    </th>
                    <th scope="col" className="number">
                      {t('columns.total')}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {o.items.map((i) => (
                    <tr key={i.id}>
                      <th scope="row">
                        {i.name}
                        {i.sku && <span className="muted small-text"> · {i.sku}</span>}
                      </th>
                      <td className="number" data-label={t('columns.quantity')}>
                        {i.quantity}
                      </td>
                      <td className="number" data-label={t('columns.unitPrice')}>
                        {money(i.unitPrice)}
                      </td>
                      <td className="number" data-label={t('columns.total')}>
                        {money(i.total)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <dl className="order-totals">
                <dt>{t('subtotal')}</dt>
                <dd>{money(o.subtotal)}</dd>
                <dt>{t('discount')}</dt>
                <dd>{money(o.discount)}</dd>
                <dt>{t('shipping')}</dt>
                <dd>{money(o.shippingFee)}</dd>
                <dt>{t('total')}</dt>
                <dd data-testid="order-total">
                  <strong>{money(o.total)}</strong>
                </dd>
              </dl>
              {NEXT_STATUSES[o.status].length > 0 && (
                <fieldset className="order-moves">
                  <legend className="visually-hidden">{t('moves')}</legend>
                  {NEXT_STATUSES[o.status].map((next) => (
                    <button key={next} type="button" disabled={move.isPending} onClick={() => move.mutate({ order: o, status: next })}>
                      {t('moveTo', { status: t(`status.${next}`) })}
                    </button>
                  ))}
                </fieldset>
              )}
              {move.error && <FormError text={errorText(t, move.error)} />}
              <OrderDetails key={o.id} order={o} />
              <OrderLogList logs={logs.data ?? []} currency={o.currency} />
            </>
          )}
          {remove.error && <FormError text={errorText(t, remove.error)} />}
          <div className="dialog-buttons">
            {o && isAdmin && (
              <ConfirmButton
                label={t('delete')}
                title={t('deleteTitle', { number: o.number })}
                description={t('deleteBody')}
                confirmLabel={t('delete')}
                disabled={remove.isPending}
                onConfirm={() => remove.mutate()}
              />
            )}
            <Dialog.Close asChild>
              <button type="button">{t('close')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** Notes, address and payment method (`PUT /orders/:orderId`); a settled order keeps its address and payment method. */
function OrderDetails({ order }: { order: Order }) {
  const { t } = useScreenStrings('orders', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const settled = order.status === 'delivered' || order.status === 'cancelled';
  const [notes, setNotes] = useState(order.notes);
  const [address, setAddress] = useState(order.address ?? '');
  const [paymentMethod, setPaymentMethod] = useState(order.paymentMethod ?? '');
  const [saved, setSaved] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      must(
        api.PUT('/orders/{orderId}', {
          params: { path: { orderId: order.id } },
          body: { notes, ...(settled ? {} : { address: address.trim() || null, paymentMethod: paymentMethod.trim() || null }) },
        }),
      ),
    onSuccess: () => {
      setSaved(true);
      void client.invalidateQueries({ queryKey: keys.orders });
    },
  });
  const refusal = refusalOf<'notes'>(t, save.error, FIELD_OF);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setSaved(false);
    save.mutate();
  };
  return (
    <form className="form order-details" onSubmit={submit} noValidate>
      <h3>{t('details')}</h3>
      <Field label={t('address')} hint={settled ? t('settledHint') : undefined}>
        {(p) => <textarea {...p} rows={2} value={address} disabled={settled} onChange={(e) => setAddress(e.target.value)} />}
      </Field>
      <Field label={t('paymentMethod')}>
        {(p) => <input {...p} value={paymentMethod} disabled={settled} onChange={(e) => setPaymentMethod(e.target.value)} />}
      </Field>
      <Field label={t('notes')} error={refusal.byField.notes}>
        {(p) => <textarea {...p} rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />}
      </Field>
      <FormError text={refusal.form} />
      <p role="status" className="small-text">
        {saved ? t('detailsSaved') : ''}
      </p>
      <div className="dialog-buttons">
        <button type="submit" className="primary" disabled={save.isPending}>
          {t('saveDetails')}
        </button>
      </div>
    </form>
  );
}

/** What happened to the order, oldest first: creation, moves (and whether the contact was told), lines and details. */
function OrderLogList({ logs, currency }: { logs: readonly OrderLog[]; currency: string }) {
  const { t, i18n } = useScreenStrings('orders', strings);
  const what = (l: OrderLog) => {
    if (l.type === 'created') return t('log.created');
    if (l.type === 'status') {
      const told = (l.data as { message?: unknown }).message ? t('log.told') : '';
      return `${t('log.status', { from: t(`status.${l.from ?? 'new'}`), to: t(`status.${l.to ?? 'new'}`) })}${told}`;
    }
    if (l.type === 'items')
      return t('log.items', { from: formatMoney(Number(l.from), currency, i18n.language), to: formatMoney(Number(l.to), currency, i18n.language) });
    return t('log.note', {
      fields: Object.keys(l.data)
        .map((k) => t(`log.fields.${k}`, { defaultValue: k }))
        .join(', '),
    });
  };
  return (
    <section className="order-log" aria-labelledby="order-log-title">
      <h3 id="order-log-title">{t('log.title')}</h3>
      <ol>
        {logs.map((l) => (
          <li key={l.id}>
            <span>{what(l)}</span>{' '}
            <span className="muted small-text">
              {l.user?.name ?? '—'} · {relativeTime(l.createdAt, i18n.language)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
