import { useInfiniteQuery } from '@tanstack/react-query';
import { Dialog } from 'radix-ui';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { errorText } from '../../ui/errors.js';
import { FormError } from '../../ui/form.js';
import { relativeTime } from '../../ui/format.js';
import { formatMoney } from '../catalog/money.js';
import { OrderDialog } from './order-dialog.js';
import { strings } from './strings.js';

type Ticket = Schema<'TicketDetails'>;

/**
 * The conversation's "Orders (n)": the contact's orders, newest first (`GET /orders/contact/:contactId`,
 * 20 a page), each opening the order; read again on `order` frames.
 */
export function ContactOrdersButton({ ticket }: { ticket: Ticket }) {
  const { t, i18n } = useScreenStrings('orders', strings);
  const { api } = useServices();
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<number | null>(null);
  const contactId = ticket.contactId;
  const list = useInfiniteQuery({
    queryKey: [...keys.orders, 'contact', contactId],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => must(api.GET('/orders/contact/{contactId}', { params: { path: { contactId }, query: { pageNumber: pageParam } } })),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const orders = list.data?.pages.flatMap((p) => p.orders) ?? [];
  const count = list.data?.pages[0]?.count ?? 0;
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {t('contactOrders.open', { count })}
      </button>
      <Dialog.Root open={open} onOpenChange={setOpen}>
        <Dialog.Portal>
          <Dialog.Overlay className="overlay" />
          <Dialog.Content className="dialog order-dialog">
            <Dialog.Title>{t('contactOrders.title', { name: ticket.contact?.name ?? '' })}</Dialog.Title>
            <Dialog.Description className="muted">{t('contactOrders.intro')}</Dialog.Description>
            {list.error && <FormError text={errorText(t, list.error)} />}
            {list.isSuccess && orders.length === 0 && <p className="placeholder">{t('contactOrders.none')}</p>}
            <ul className="contact-orders">
              {orders.map((o) => (
                <li key={o.id}>
                  <span>
                    {t('contactOrders.line', { number: o.number, status: t(`status.${o.status}`), total: formatMoney(o.total, o.currency, i18n.language) })}
                    <span className="muted small-text"> · {relativeTime(o.createdAt, i18n.language)}</span>
                  </span>
                  <button type="button" className="small" aria-label={t('openLabel', { number: o.number })} onClick={() => setShown(o.id)}>
                    {t('open')}
                  </button>
                </li>
              ))}
            </ul>
            {list.hasNextPage && (
              <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {t('more')}
              </button>
            )}
            <div className="dialog-buttons">
              <Dialog.Close asChild>
                <button type="button">{t('close')}</button>
              </Dialog.Close>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      {shown !== null && <OrderDialog orderId={shown} close={() => setShown(null)} />}
    </>
  );
}
