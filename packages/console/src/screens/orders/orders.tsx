import { DndContext, type DragEndEvent, DragOverlay, MouseSensor, TouchSensor, useDraggable, useDroppable, useSensor, useSensors } from '@dnd-kit/core';
import { NEXT_STATUSES, ORDER_STATUSES, type OrderStatus } from '@servicedesk/core/orders/order';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminHeader } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { FormError } from '../../ui/form.js';
import { relativeTime } from '../../ui/format.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { formatMoney } from '../catalog/money.js';
import { type Report, useMoveOrder } from './move-order.js';
import { OrderDialog } from './order-dialog.js';
import { OrderSettings } from './order-settings.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './orders.css';

type Order = Schema<'Order'>;

/**
 * `/orders`: the company's orders as a board, a column per status, live from `order` frames; each
 * card moves by its buttons to the statuses the server allows, and opens the order with its lines,
 * totals and log. Admins also edit the order settings (currency, payment instructions and the
 * message each status sends, per connection).
 */
export function Orders() {
  const { t } = useScreenStrings('orders', strings);
  const session = useSession();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const [view, setView] = useState<'board' | 'settings'>('board');
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const [open, setOpen] = useState<number | null>(null);
  const [notice, setNotice] = useState('');
  const [refusal, setRefusal] = useState<string | null>(null);
  const report = (text: string, refused: boolean) => {
    setRefusal(refused ? text : null);
    if (!refused) setNotice(text);
  };

  return (
    <section className="admin-screen orders-screen" aria-labelledby="orders-title">
      <AdminHeader
        titleId="orders-title"
        title={t('title')}
        intro={t('intro')}
        {...(view === 'board' ? { search: { label: t('search'), value: search, onChange: setSearch } } : {})}
      >
        <div className="view-switch">
          <button type="button" aria-pressed={view === 'board'} onClick={() => setView('board')}>
            {t('board')}
          </button>
          <button type="button" aria-pressed={view === 'settings'} onClick={() => setView('settings')}>
            {t('settings.title')}
          </button>
        </div>
      </AdminHeader>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {view === 'board' && <FormError text={refusal} />}
      {view === 'board' ? <OrderBoard searchParam={searchParam} openOrder={setOpen} report={report} /> : <OrderSettings isAdmin={isAdmin} />}
      {open !== null && <OrderDialog orderId={open} close={() => setOpen(null)} />}
    </section>
  );
}

/**
 * The columns, whose cards may also be dragged with a mouse or a finger onto the column of a status
 * the server allows next (the buttons are the keyboard's way); a drop anywhere else is explained.
 */
function OrderBoard(props: { searchParam: string; openOrder: (id: number) => void; report: Report }) {
  const { t } = useScreenStrings('orders', strings);
  const move = useMoveOrder(props.report);
  const [dragged, setDragged] = useState<Order | null>(null);
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 6 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    setDragged(null);
    const order = (active.data.current as { order?: Order } | undefined)?.order;
    const to = over ? (String(over.id) as OrderStatus) : null;
    if (!order || !to || to === order.status) return;
    const allowed = NEXT_STATUSES[order.status];
    if (allowed.includes(to as (typeof allowed)[number])) return move.mutate({ order, status: to });
    const from = t(`status.${order.status}`);
    props.report(
      allowed.length
        ? t('dropRefused', { number: order.number, from, to: t(`status.${to}`), allowed: allowed.map((a) => t(`status.${a}`)).join(', ') })
        : t('dropFinal', { number: order.number, from }),
      true,
    );
  };
  return (
    <DndContext
      sensors={sensors}
      onDragStart={({ active }) => setDragged((active.data.current as { order?: Order } | undefined)?.order ?? null)}
      onDragEnd={onDragEnd}
      onDragCancel={() => setDragged(null)}
    >
      <div className="order-board">
        {ORDER_STATUSES.map((status) => (
          <OrderColumn key={status} status={status} dragged={dragged} {...props} />
        ))}
      </div>
      <DragOverlay dropAnimation={null}>
        {dragged && (
          <div className="order-card overlay" aria-hidden="true">
            <strong>{t('orderNumber', { number: dragged.number })}</strong>
            <span>{dragged.contact?.name ?? t('noContact')}</span>
          </div>
        )}
      </DragOverlay>
    </DndContext>
  );
}

function OrderColumn(props: { status: OrderStatus; dragged: Order | null; searchParam: string; openOrder: (id: number) => void; report: Report }) {
  const { t } = useScreenStrings('orders', strings);
  const { api } = useServices();
  const { status, searchParam, dragged } = props;
  const { setNodeRef, isOver } = useDroppable({ id: status });
  const drop = dragged && dragged.status !== status ? (NEXT_STATUSES[dragged.status].some((s) => s === status) ? 'drop-ok' : 'drop-no') : '';
  const list = useInfiniteQuery({
    queryKey: [...keys.orders, 'column', status, searchParam],
    initialPageParam: 1,
    queryFn: ({ pageParam }) => must(api.GET('/orders', { params: { query: { status, pageNumber: pageParam, ...(searchParam ? { searchParam } : {}) } } })),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const orders = list.data?.pages.flatMap((p) => p.orders) ?? [];
  const count = list.data?.pages[0]?.count ?? 0;
  const headingId = `orders-column-${status}`;
  return (
    <section
      ref={setNodeRef}
      className={`order-column status-${status} ${drop} ${isOver ? 'over' : ''}`}
      aria-labelledby={headingId}
      aria-busy={list.isLoading}
    >
      <h2 id={headingId}>
        {t(`status.${status}`)} <span className="muted">({count})</span>
      </h2>
      {list.error && <FormError text={errorText(t, list.error)} />}
      {list.isSuccess && orders.length === 0 && <p className="muted small-text">{t('noOrders')}</p>}
      <ul>
        {orders.map((o) => (
          <li key={o.id}>
            <OrderCard order={o} openOrder={props.openOrder} report={props.report} />
          </li>
        ))}
      </ul>
      {list.hasNextPage && (
        <button type="button" className="small" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {t('more')}
        </button>
      )}
    </section>
  );
}

function OrderCard({ order, openOrder, report }: { order: Order; openOrder: (id: number) => void; report: Report }) {
  const { t, i18n } = useScreenStrings('orders', strings);
  const move = useMoveOrder(report);
  const titleId = `order-${order.id}-title`;
  const lines = order.items.reduce((n, i) => n + i.quantity, 0);
  // Dragged by the pointer only (its listeners, not its keyboard attributes): the buttons below are the keyboard's moves.
  const { listeners, setNodeRef, isDragging } = useDraggable({ id: order.id, data: { order } });
  return (
    <article
      ref={setNodeRef}
      {...listeners}
      className={`order-card ${isDragging ? 'dragging' : ''}`}
      aria-labelledby={titleId}
      data-testid={`order-${order.id}`}
    >
      <h3 id={titleId}>{t('orderNumber', { number: order.number })}</h3>
      <p>{order.contact?.name ?? t('noContact')}</p>
      <p>
        <strong>{formatMoney(order.total, order.currency, i18n.language)}</strong> · {t('units', { count: lines })}
      </p>
      <p className="muted small-text">{relativeTime(order.createdAt, i18n.language)}</p>
      <div className="row-actions">
        <button type="button" className="small" aria-label={t('openLabel', { number: order.number })} onClick={() => openOrder(order.id)}>
          {t('open')}
        </button>
        {NEXT_STATUSES[order.status].map((next) => (
          <button
            key={next}
            type="button"
            className="small"
            disabled={move.isPending}
            aria-label={t('moveLabel', { number: order.number, status: t(`status.${next}`) })}
            onClick={() => move.mutate({ order, status: next })}
          >
            {t('moveTo', { status: t(`status.${next}`) })}
          </button>
        ))}
      </div>
    </article>
  );
}
