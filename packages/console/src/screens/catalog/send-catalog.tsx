import { MAX_CATALOG_ITEMS } from '@servicedesk/core/conversations/send-catalog';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { must } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { Field, refusalOf } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { useCategories } from './categories.js';
import { categoryTree } from './category-tree.js';
import { formatMoney } from './money.js';
import { strings } from './strings.js';

const FIELD_OF = {
  ERR_INVALID_CATALOG_ITEMS: 'productIds',
  ERR_PRODUCT_NOT_FOUND: 'productIds',
  ERR_CATEGORY_NOT_FOUND: 'categoryId',
  ERR_MESSAGE_TOO_LONG: 'body',
} as const;
type SendField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/**
 * "Share the catalog" in a conversation (its label leaves the reply box alone as the one "Send"): chosen products (up to 30, in the order ticked) or a
 * category's active products, as one text list or one image per product, with an optional intro
 * (`POST /messages/:ticketId/catalog`). The messages then arrive in the conversation by its frames.
 */
export function SendCatalogButton({ ticketId, disabled }: { ticketId: number; disabled?: boolean }) {
  const { t } = useScreenStrings('catalog', strings);
  const [open, setOpen] = useState(false);
  const [notice, setNotice] = useState('');
  return (
    <>
      <button type="button" disabled={disabled} onClick={() => setOpen(true)}>
        {t('send.open')}
      </button>
      <span className="visually-hidden" role="status">
        {notice}
      </span>
      {open && (
        <SendCatalogDialog
          ticketId={ticketId}
          close={(sent) => {
            setOpen(false);
            if (sent) setNotice(t('send.sent'));
          }}
        />
      )}
    </>
  );
}

function SendCatalogDialog({ ticketId, close }: { ticketId: number; close: (sent: boolean) => void }) {
  const { t, i18n } = useScreenStrings('catalog', strings);
  const { api } = useServices();
  const [what, setWhat] = useState<'products' | 'category'>('products');
  const [mode, setMode] = useState<'text' | 'images'>('images');
  const [intro, setIntro] = useState('');
  const [chosen, setChosen] = useState<number[]>([]);
  const [categoryId, setCategoryId] = useState('');
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const categories = useCategories();
  const products = useQuery({
    queryKey: [...keys.catalog, 'products', 'active', searchParam],
    queryFn: () => must(api.GET('/products', { params: { query: { active: true, ...(searchParam ? { searchParam } : {}) } } })),
    enabled: what === 'products',
  });
  const send = useMutation({
    mutationFn: () =>
      must(
        api.POST('/messages/{ticketId}/catalog', {
          params: { path: { ticketId } },
          body: {
            mode,
            ...(intro.trim() ? { body: intro } : {}),
            // Nothing chosen sends neither: the server's own refusal (`ERR_INVALID_CATALOG_ITEMS`) says what is missing.
            ...(what === 'products' ? (chosen.length ? { productIds: chosen } : {}) : categoryId ? { categoryId: Number(categoryId) } : {}),
          },
        }),
      ),
    onSuccess: () => close(true),
  });
  const refusal = refusalOf<SendField>(t, send.error, FIELD_OF);
  const toggle = (id: number, on: boolean) => setChosen((c) => (on ? [...c, id] : c.filter((x) => x !== id)));

  return (
    <FormDialog
      className="send-catalog-dialog"
      title={t('send.title')}
      description={t('send.intro', { max: MAX_CATALOG_ITEMS })}
      hideDescription={false}
      submitLabel={t('send.submit')}
      onSubmit={() => send.mutate()}
      onClose={() => close(false)}
      pending={send.isPending}
      error={refusal.form}
    >
      <fieldset className="choice">
        <legend>{t('send.what')}</legend>
        <label className="check">
          <input type="radio" name="what" checked={what === 'products'} onChange={() => setWhat('products')} />
          {t('send.products')}
        </label>
        <label className="check">
          <input type="radio" name="what" checked={what === 'category'} onChange={() => setWhat('category')} />
          {t('send.category')}
        </label>
      </fieldset>
      {what === 'products' ? (
        <fieldset className="product-picker" aria-describedby={refusal.byField.productIds ? 'send-products-error' : undefined}>
          <legend>{t('send.pick', { count: chosen.length, max: MAX_CATALOG_ITEMS })}</legend>
          <label>
            <span className="visually-hidden">{t('search')}</span>
            <input type="search" placeholder={t('search')} value={search} onChange={(e) => setSearch(e.target.value)} />
          </label>
          <ul>
            {(products.data?.products ?? []).map((p) => (
              <li key={p.id}>
                <label className="check">
                  <input
                    type="checkbox"
                    checked={chosen.includes(p.id)}
                    disabled={!chosen.includes(p.id) && chosen.length >= MAX_CATALOG_ITEMS}
                    onChange={(e) => toggle(p.id, e.target.checked)}
                  />
                  {p.images[0] && <img className="thumb" src={p.images[0].url} alt="" />}
                  <span>
                    {p.name} <span className="muted">{formatMoney(p.price, p.currency, i18n.language)}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
          {products.isSuccess && products.data.products.length === 0 && <p className="muted">{t('send.none')}</p>}
          {refusal.byField.productIds && (
            <span id="send-products-error" className="form-error" role="alert">
              {refusal.byField.productIds}
            </span>
          )}
        </fieldset>
      ) : (
        <Field label={t('send.categoryLabel')} error={refusal.byField.categoryId ?? refusal.byField.productIds}>
          {(p) => (
            <select {...p} value={categoryId} onChange={(e) => setCategoryId(e.target.value)}>
              <option value="">{t('send.chooseCategory')}</option>
              {categoryTree(categories.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.depth ? `— ${c.name}` : c.name} ({c.productsCount})
                </option>
              ))}
            </select>
          )}
        </Field>
      )}
      <Field label={t('send.mode')}>
        {(p) => (
          <select {...p} value={mode} onChange={(e) => setMode(e.target.value as 'text' | 'images')}>
            <option value="images">{t('send.modeImages')}</option>
            <option value="text">{t('send.modeText')}</option>
          </select>
        )}
      </Field>
      <Field label={t('send.body')} error={refusal.byField.body} hint={t('send.bodyHint')}>
        {(p) => <textarea {...p} rows={2} value={intro} onChange={(e) => setIntro(e.target.value)} />}
      </Field>
    </FormDialog>
  );
}
