import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { codeOf } from '../../ui/errors.js';
import { Field, refusalOf } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { FALLBACK_CURRENCY, formatMoney, textToMinor } from '../catalog/money.js';
import { strings } from './strings.js';

type Product = Schema<'Product'>;
type Ticket = Schema<'TicketDetails'>;

const FIELD_OF = {
  ERR_ORDER_INVALID_ITEMS: 'items',
  ERR_ORDER_PRODUCT_INACTIVE: 'items',
  ERR_ORDER_CURRENCY_MISMATCH: 'items',
  ERR_PRODUCT_NOT_FOUND: 'items',
  ERR_ORDER_OUT_OF_STOCK: 'items',
  ERR_ORDER_INVALID_AMOUNT: 'discount',
  ERR_ORDER_INVALID_DETAILS: 'notes',
} as const;
type NewOrderField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** The lines a refusal names (`items.<index>.quantity`, as the out-of-stock refusal does). */
function refusedLines(err: unknown): Set<number> {
  const out = new Set<number>();
  if (!(err instanceof ApiError) || !Array.isArray(err.fields)) return out;
  for (const f of err.fields as Array<{ path?: unknown }>) {
    const m = typeof f.path === 'string' ? /^items\.(\d+)/.exec(f.path) : null;
    if (m) out.add(Number(m[1]));
  }
  return out;
}

/** "New order" in a conversation: an order for its contact, from it (`POST /orders` with `ticketId`). */
export function NewOrderButton({ ticket }: { ticket: Ticket }) {
  const { t } = useScreenStrings('orders', strings);
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState('');
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        {t('new.open')}
      </button>
      <span className="visually-hidden" role="status">
        {notice}
      </span>
      {open && (
        <NewOrderDialog
          ticket={ticket}
          close={(number) => {
            setOpen(false);
            if (number !== null) setNotice(t('new.created', { number }));
          }}
        />
      )}
    </>
  );
}

/**
 * The order's lines picked from the active products (quantities typed), a discount and a shipping
 * fee in the order's currency (the settings of the conversation's connection, else the company's),
 * the address, payment method and notes; the server prices the lines and takes the stock. A refusal
 * naming a line (out of stock) is shown at that line's quantity, everything typed kept.
 */
function NewOrderDialog({ ticket, close }: { ticket: Ticket; close: (number: number | null) => void }) {
  const { t, i18n } = useScreenStrings('orders', strings);
  const { api } = useServices();
  const settings = useQuery({ queryKey: [...keys.orders, 'settings'], queryFn: () => must(api.GET('/order-settings')) });
  const currency =
    settings.data?.find((s) => s.connectionId === ticket.chatappId)?.currency ??
    settings.data?.find((s) => s.connectionId === null)?.currency ??
    FALLBACK_CURRENCY;
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const products = useQuery({
    queryKey: [...keys.catalog, 'products', 'active', searchParam],
    queryFn: () => must(api.GET('/products', { params: { query: { active: true, ...(searchParam ? { searchParam } : {}) } } })),
  });
  const [lines, setLines] = useState<Array<{ product: Product; quantity: string }>>([]);
  const [discount, setDiscount] = useState('');
  const [shipping, setShipping] = useState('');
  const [address, setAddress] = useState('');
  const [paymentMethod, setPaymentMethod] = useState('');
  const [notes, setNotes] = useState('');
  const money = (minor: number) => formatMoney(minor, currency, i18n.language);
  const amount = (text: string) => (text.trim() ? textToMinor(text, currency) : 0);

  const create = useMutation({
    mutationFn: () => {
      const d = amount(discount);
      const s = amount(shipping);
      if (d === null || s === null) throw new ApiError(422, 'ERR_ORDER_INVALID_AMOUNT');
      return must(
        api.POST('/orders', {
          body: {
            contactId: ticket.contactId,
            ticketId: ticket.id,
            items: lines.map((l) => ({ productId: l.product.id, quantity: Number(l.quantity) })),
            discount: d,
            shippingFee: s,
            notes,
            address: address.trim() || null,
            paymentMethod: paymentMethod.trim() || null,
          },
        }),
      );
    },
    onSuccess: (order) => close(order.number),
  });
  const refusal = refusalOf<NewOrderField>(t, create.error, FIELD_OF);
  const badLines = refusedLines(create.error);
  const outOfStock = codeOf(create.error) === 'ERR_ORDER_OUT_OF_STOCK';
  const subtotal = lines.reduce((sum, l) => sum + l.product.price * (Number(l.quantity) || 0), 0);
  const add = (p: Product) =>
    setLines((ls) =>
      ls.some((l) => l.product.id === p.id)
        ? ls.map((l) => (l.product.id === p.id ? { ...l, quantity: String(Number(l.quantity) + 1) } : l))
        : [...ls, { product: p, quantity: '1' }],
    );
  const offered = (products.data?.products ?? []).filter((p) => p.currency === currency);

  return (
    <FormDialog
      className="new-order-dialog"
      title={t('new.title', { name: ticket.contact?.name ?? '' })}
      description={t('new.intro', { currency })}
      hideDescription={false}
      submitLabel={t('new.submit')}
      onSubmit={() => create.mutate()}
      onClose={() => close(null)}
      pending={create.isPending}
      error={refusal.form}
    >
      <fieldset className="order-picker">
        <legend>{t('new.products')}</legend>
        <label>
          <span className="visually-hidden">{t('new.search')}</span>
          <input type="search" placeholder={t('new.search')} value={search} onChange={(e) => setSearch(e.target.value)} />
        </label>
        <ul>
          {offered.map((p) => (
            <li key={p.id}>
              <span>
                {p.name} <span className="muted">{formatMoney(p.price, p.currency, i18n.language)}</span>
                {p.trackStock && <span className="muted small-text"> · {t('new.inStock', { count: p.stock })}</span>}
              </span>
              <button type="button" className="small" aria-label={t('new.addLabel', { name: p.name })} onClick={() => add(p)}>
                {t('new.add')}
              </button>
            </li>
          ))}
        </ul>
        {products.isSuccess && offered.length === 0 && <p className="muted">{t('new.noProducts')}</p>}
      </fieldset>
      <fieldset className="order-picker">
        <legend>{t('lines')}</legend>
        {lines.length === 0 && <p className="muted">{t('new.noLines')}</p>}
        <ul>
          {lines.map((l, i) => (
            <li key={l.product.id}>
              <Field label={t('new.quantityOf', { name: l.product.name })} error={badLines.has(i) && outOfStock ? t('new.outOfStock') : undefined}>
                {(p) => (
                  <input
                    {...p}
                    className="short"
                    type="number"
                    min={1}
                    step={1}
                    value={l.quantity}
                    onChange={(e) => setLines((ls) => ls.map((x, j) => (j === i ? { ...x, quantity: e.target.value } : x)))}
                  />
                )}
              </Field>
              <button
                type="button"
                className="small"
                aria-label={t('new.removeLabel', { name: l.product.name })}
                onClick={() => setLines((ls) => ls.filter((_, j) => j !== i))}
              >
                {t('new.remove')}
              </button>
            </li>
          ))}
        </ul>
        {refusal.byField.items && !(outOfStock && badLines.size > 0) && (
          <span className="form-error" role="alert">
            {refusal.byField.items}
          </span>
        )}
        <p>
          {t('subtotal')}: <strong>{money(subtotal)}</strong>
        </p>
      </fieldset>
      <div className="field-row">
        <Field label={t('discount')} error={refusal.byField.discount}>
          {(p) => <input {...p} inputMode="decimal" value={discount} onChange={(e) => setDiscount(e.target.value)} />}
        </Field>
        <Field label={t('shipping')}>{(p) => <input {...p} inputMode="decimal" value={shipping} onChange={(e) => setShipping(e.target.value)} />}</Field>
      </div>
      <Field label={t('address')}>{(p) => <textarea {...p} rows={2} value={address} onChange={(e) => setAddress(e.target.value)} />}</Field>
      <Field label={t('paymentMethod')}>{(p) => <input {...p} value={paymentMethod} onChange={(e) => setPaymentMethod(e.target.value)} />}</Field>
      <Field label={t('notes')} error={refusal.byField.notes}>
        {(p) => <textarea {...p} rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />}
      </Field>
    </FormDialog>
  );
}
