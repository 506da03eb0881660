import { MAX_PRODUCT_IMAGES } from '@servicedesk/core/catalog/product';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { errorText } from '../../ui/errors.js';
import { Field, FormError, refusalOf } from '../../ui/form.js';
import { categoryTree } from './category-tree.js';
import { minorToText, textToMinor } from './money.js';
import { strings } from './strings.js';

type Product = Schema<'Product'>;
type Category = Schema<'Category'>;

/** The refusals of the product routes that name a field of the form. */
const FIELD_OF = {
  ERR_PRODUCT_INVALID_NAME: 'name',
  ERR_PRODUCT_INVALID_DESCRIPTION: 'description',
  ERR_PRODUCT_INVALID_SKU: 'sku',
  ERR_PRODUCT_SKU_IN_USE: 'sku',
  ERR_PRODUCT_INVALID_PRICE: 'price',
  ERR_PRODUCT_INVALID_CURRENCY: 'currency',
  ERR_PRODUCT_INVALID_STOCK: 'stock',
  ERR_CATEGORY_NOT_FOUND: 'categoryId',
} as const;
type ProductField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/**
 * Creating or editing a product. A new product, once saved, stays open as an edit so its images can
 * be added; images upload at once (`POST /products/:id/images`) and go with "Remove"
 * (`DELETE …/images/:imageId`), up to the server's limit. The API keeps images in the order they
 * were added and has no route to reorder them: the first is the one a catalog message sends.
 */
export function ProductDialog(props: {
  product: Product | null;
  currency: string;
  categoryId: number | null;
  categories: readonly Category[];
  close: (saved: Product | null) => void;
}) {
  const { t } = useScreenStrings('catalog', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [product, setProduct] = useState(props.product);
  const [name, setName] = useState(product?.name ?? '');
  const [description, setDescription] = useState(product?.description ?? '');
  const [sku, setSku] = useState(product?.sku ?? '');
  const [currency, setCurrency] = useState(product?.currency ?? props.currency);
  const [price, setPrice] = useState(product ? minorToText(product.price, product.currency) : '');
  const [trackStock, setTrackStock] = useState(product?.trackStock ?? false);
  const [stock, setStock] = useState(String(product?.stock ?? 0));
  const [active, setActive] = useState(product?.active ?? true);
  const [categoryId, setCategoryId] = useState(String(product ? (product.categoryId ?? '') : (props.categoryId ?? '')));
  const [created, setCreated] = useState(false);

  const save = useMutation({
    mutationFn: () => {
      const minor = textToMinor(price, currency.trim().toUpperCase() || props.currency);
      if (minor === null) throw new ApiError(422, 'ERR_PRODUCT_INVALID_PRICE');
      const body = {
        name,
        description,
        sku: sku.trim() || null,
        price: minor,
        currency,
        trackStock,
        ...(trackStock ? { stock: Number(stock) } : {}),
        active,
        categoryId: categoryId ? Number(categoryId) : null,
      };
      return product ? must(api.PUT('/products/{productId}', { params: { path: { productId: product.id } }, body })) : must(api.POST('/products', { body }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.catalog });
      if (product) return props.close(saved);
      setProduct(saved);
      setCreated(true);
    },
  });
  const refusal = refusalOf<ProductField>(t, save.error, FIELD_OF);

  return (
    <FormDialog
      className="product-dialog"
      title={product && !created ? t('editTitle', { name: product.name }) : t('addTitle')}
      description={t('productIntro')}
      submitLabel={created ? t('saveAgain') : t('save')}
      onSubmit={() => save.mutate()}
      onClose={() => props.close(created ? product : null)}
      pending={save.isPending}
      error={refusal.form}
    >
      {created && (
        <p role="status" className="notice">
          {t('createdAddImages')}
        </p>
      )}
      <Field label={t('name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('description')} error={refusal.byField.description}>
        {(p) => <textarea {...p} rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <div className="field-row">
        <Field label={t('price')} error={refusal.byField.price} hint={t('priceHint')}>
          {(p) => <input {...p} inputMode="decimal" value={price} onChange={(e) => setPrice(e.target.value)} autoComplete="off" />}
        </Field>
        <Field label={t('currency')} error={refusal.byField.currency} hint={t('currencyHint')}>
          {(p) => <input {...p} className="short" value={currency} maxLength={3} onChange={(e) => setCurrency(e.target.value)} autoComplete="off" />}
        </Field>
      </div>
      <Field label={t('sku')} error={refusal.byField.sku} hint={t('skuHint')}>
        {(p) => <input {...p} value={sku} onChange={(e) => setSku(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('category')} error={refusal.byField.categoryId}>
        {(p) => (
          <select {...p} value={categoryId} onChange={(e) => setCategoryId(e.target.value)}>
            <option value="">{t('noCategory')}</option>
            {categoryTree(props.categories).map((c) => (
              <option key={c.id} value={c.id}>
                {c.depth ? `— ${c.name}` : c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <label className="check">
        <input type="checkbox" checked={trackStock} onChange={(e) => setTrackStock(e.target.checked)} />
        {t('trackStock')}
      </label>
      {trackStock && (
        <Field label={t('stock')} error={refusal.byField.stock}>
          {(p) => <input {...p} type="number" min={0} step={1} value={stock} onChange={(e) => setStock(e.target.value)} />}
        </Field>
      )}
      <label className="check">
        <input type="checkbox" checked={active} onChange={(e) => setActive(e.target.checked)} />
        {t('active')}
      </label>
      {product ? <ProductImages product={product} onChange={setProduct} /> : <p className="muted small-text">{t('imagesAfterSave')}</p>}
    </FormDialog>
  );
}

/** A product's images: shown in their order, uploaded at once, removed one by one, up to the server's limit. */
function ProductImages({ product, onChange }: { product: Product; onChange: (p: Product) => void }) {
  const { t } = useScreenStrings('catalog', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [inputKey, setInputKey] = useState(0);
  const room = MAX_PRODUCT_IMAGES - product.images.length;
  const done = (saved: Product) => {
    onChange(saved);
    void client.invalidateQueries({ queryKey: keys.catalog });
  };
  const upload = useMutation({
    mutationFn: (files: File[]) => {
      const form = new FormData();
      for (const f of files) form.append('images', f, f.name);
      return must(
        api.POST('/products/{productId}/images', {
          params: { path: { productId: product.id } },
          body: form as never,
          bodySerializer: (b: unknown) => b as FormData,
        }),
      );
    },
    onSuccess: done,
    onSettled: () => setInputKey((k) => k + 1),
  });
  const remove = useMutation({
    mutationFn: (imageId: number) => must(api.DELETE('/products/{productId}/images/{imageId}', { params: { path: { productId: product.id, imageId } } })),
    onSuccess: done,
  });
  return (
    <fieldset className="product-images">
      <legend>{t('images')}</legend>
      <p className="muted small-text" id={`images-count-${product.id}`}>
        {t('imagesCount', { count: product.images.length, max: MAX_PRODUCT_IMAGES })} {t('imagesOrder')}
      </p>
      {product.images.length > 0 && (
        <ul className="image-list">
          {product.images.map((image, i) => (
            <li key={image.id}>
              <img src={image.url} alt={t('imageN', { n: i + 1, name: product.name })} />
              <button
                type="button"
                className="small"
                aria-label={t('removeImage', { n: i + 1 })}
                disabled={remove.isPending}
                onClick={() => remove.mutate(image.id)}
              >
                {t('remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <Field label={t('addImages')} error={upload.error ? errorText(t, upload.error) : undefined} hint={t('imagesHint')}>
        {(p) => (
          <input
            {...p}
            key={inputKey}
            type="file"
            multiple
            accept="image/png,image/jpeg,image/webp,image/gif"
            disabled={room <= 0 || upload.isPending}
            onChange={(e) => {
              const files = [...(e.target.files ?? [])];
              if (files.length) upload.mutate(files);
            }}
          />
        )}
      </Field>
      {upload.isPending && <p role="status">{t('uploading')}</p>}
      {remove.error && <FormError text={errorText(t, remove.error)} />}
    </fieldset>
  );
}
