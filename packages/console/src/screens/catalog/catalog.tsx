import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices, useSession } from '../../services.js';
import { AdminHeader } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { ConfirmButton, FormError } from '../../ui/form.js';
import { useDebounced } from '../../ui/use-debounced.js';
import { CategoryDialog, CategoryList, useCategories } from './categories.js';
import { ImportDialog } from './import-dialog.js';
import { companyCurrency, formatMoney } from './money.js';
import { ProductDialog } from './product-dialog.js';
import { strings } from './strings.js';
import '../../ui/admin.css';
import './catalog.css';

type Product = Schema<'Product'>;
type Category = Schema<'Category'>;

/** The company's default currency (`GET /order-settings`): the prices new products start in. */
export function useCompanyCurrency(): string {
  const { api } = useServices();
  const settings = useQuery({ queryKey: [...keys.orders, 'settings'], queryFn: () => must(api.GET('/order-settings')) });
  return companyCurrency(settings.data);
}

/**
 * `/catalog`: the company's products by category (a side list, one level under the top), searched
 * and paged, live from `product` and `category` frames; admins add and edit products with their
 * images, the categories, delete after asking, and import a CSV or XLSX file with its progress.
 */
export function Catalog() {
  const { t, i18n } = useScreenStrings('catalog', strings);
  const { api } = useServices();
  const session = useSession();
  const client = useQueryClient();
  const isAdmin = session?.user.profile === 'admin' || session?.user.super === true;
  const [search, setSearch] = useState('');
  const searchParam = useDebounced(search.trim(), 250);
  const [categoryId, setCategoryId] = useState<number | null>(null);
  const [editing, setEditing] = useState<Product | 'new' | null>(null);
  const [editingCategory, setEditingCategory] = useState<Category | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [notice, setNotice] = useState('');
  const categories = useCategories();
  const currency = useCompanyCurrency();
  const category = categories.data?.find((c) => c.id === categoryId) ?? null;

  const list = useInfiniteQuery({
    queryKey: [...keys.catalog, 'products', searchParam, categoryId],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      must(
        api.GET('/products', {
          params: { query: { pageNumber: pageParam, ...(searchParam ? { searchParam } : {}), ...(categoryId !== null ? { categoryId } : {}) } },
        }),
      ),
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
  const products = list.data?.pages.flatMap((p) => p.products) ?? [];
  const total = list.data?.pages[0]?.count ?? 0;

  const remove = useMutation({
    mutationFn: (product: Product) => must(api.DELETE('/products', { body: { ids: [product.id] } })),
    onSuccess: (_, product) => {
      setNotice(t('deleted', { name: product.name }));
      void client.invalidateQueries({ queryKey: keys.catalog });
    },
  });
  const removeCategory = useMutation({
    mutationFn: (c: Category) => must(api.DELETE('/categories', { body: { ids: [c.id], detach: true } })),
    onSuccess: (_, c) => {
      setNotice(t('categoryDeleted', { name: c.name }));
      setCategoryId(null);
      void client.invalidateQueries({ queryKey: keys.catalog });
    },
  });

  return (
    <section className="admin-screen catalog-screen" aria-labelledby="catalog-title">
      <AdminHeader
        titleId="catalog-title"
        title={t('title')}
        intro={t('intro', { currency })}
        search={{ label: t('search'), value: search, onChange: setSearch }}
        add={isAdmin ? { label: t('add'), onClick: () => setEditing('new') } : null}
        readOnly={t('readOnly')}
      >
        {isAdmin && (
          <>
            <button type="button" onClick={() => setEditingCategory('new')}>
              {t('addCategory')}
            </button>
            <button type="button" onClick={() => setImporting(true)}>
              {t('import')}
            </button>
          </>
        )}
      </AdminHeader>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {remove.error && <FormError text={errorText(t, remove.error)} />}
      {removeCategory.error && <FormError text={errorText(t, removeCategory.error)} />}
      <div className="catalog-body">
        <CategoryList categories={categories.data ?? []} selected={categoryId} select={setCategoryId} />
        <div className="catalog-products">
          {category && (
            <div className="category-head">
              <h2>{category.name}</h2>
              {category.description && <p className="muted">{category.description}</p>}
              {isAdmin && (
                <div className="row-actions">
                  <button type="button" className="small" onClick={() => setEditingCategory(category)}>
                    {t('editCategory')}
                  </button>
                  <ConfirmButton
                    className="small"
                    label={t('deleteCategory')}
                    title={t('deleteCategoryTitle', { name: category.name })}
                    description={t('deleteCategoryBody', { count: category.productsCount })}
                    confirmLabel={t('delete')}
                    disabled={removeCategory.isPending}
                    onConfirm={() => removeCategory.mutate(category)}
                  />
                </div>
              )}
            </div>
          )}
          <p className="list-count" aria-live="polite">
            {list.isSuccess && t('count', { count: total })}
          </p>
          {list.error && <FormError text={errorText(t, list.error)} />}
          {list.isSuccess && products.length === 0 ? (
            <p className="placeholder">{searchParam || categoryId !== null ? t('noMatch') : t('empty')}</p>
          ) : (
            <table className="admin-table catalog-table" aria-labelledby="catalog-title" aria-busy={list.isLoading}>
              <thead>
                <tr>
                  <th scope="col">{t('columns.image')}</th>
                  <th scope="col">{t('columns.product')}</th>
                  <th scope="col">{t('columns.sku')}</th>
                  <th scope="col" className="number">
                    {t('columns.price')}
                  </th>
                  <th scope="col" className="number">
                    {t('columns.stock')}
                  </th>
                  <th scope="col">{t('columns.category')}</th>
                  <th scope="col">{t('columns.active')}</th>
                  {isAdmin && <th scope="col">{t('columns.actions')}</th>}
                </tr>
              </thead>
              <tbody>
                {products.map((p) => (
                  <tr key={p.id} data-testid={`product-${p.id}`}>
                    <td className="thumb-cell">
                      {p.images[0] ? <img className="thumb" src={p.images[0].url} alt={t('imageOf', { name: p.name })} /> : <span className="thumb none" />}
                    </td>
                    <th scope="row">{p.name}</th>
                    <td data-label={t('columns.sku')}>{p.sku ?? '—'}</td>
                    <td className="number" data-label={t('columns.price')}>
                      {formatMoney(p.price, p.currency, i18n.language)}
                    </td>
                    <td className="number" data-label={t('columns.stock')}>
                      {p.trackStock ? p.stock : t('notCounted')}
                    </td>
                    <td data-label={t('columns.category')}>{p.category?.name ?? '—'}</td>
                    <td data-label={t('columns.active')}>{p.active ? t('activeYes') : t('activeNo')}</td>
                    {isAdmin && (
                      <td className="row-actions">
                        <button type="button" className="small" aria-label={t('editLabel', { name: p.name })} onClick={() => setEditing(p)}>
                          {t('edit')}
                        </button>
                        <ConfirmButton
                          className="small"
                          label={t('delete')}
                          title={t('deleteTitle', { name: p.name })}
                          description={t('deleteBody')}
                          confirmLabel={t('delete')}
                          disabled={remove.isPending}
                          onConfirm={() => remove.mutate(p)}
                        />
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {list.hasNextPage && (
            <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {t('more')}
            </button>
          )}
        </div>
      </div>
      {editing && (
        <ProductDialog
          product={editing === 'new' ? null : editing}
          currency={currency}
          categoryId={categoryId}
          categories={categories.data ?? []}
          close={(saved) => {
            setEditing(null);
            if (saved) setNotice(t('saved', { name: saved.name }));
          }}
        />
      )}
      {editingCategory && (
        <CategoryDialog
          category={editingCategory === 'new' ? null : editingCategory}
          categories={categories.data ?? []}
          close={(saved) => {
            setEditingCategory(null);
            if (saved) {
              setNotice(t('categorySaved', { name: saved.name }));
              setCategoryId(saved.id);
            }
          }}
        />
      )}
      {importing && <ImportDialog close={() => setImporting(false)} />}
    </section>
  );
}
