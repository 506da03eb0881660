import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { must, type Schema } from '../../api/client.js';
import { useScreenStrings } from '../../i18n/screen-strings.js';
import { keys } from '../../realtime/apply-frame.js';
import { useServices } from '../../services.js';
import { FormDialog } from '../../ui/admin-screen.js';
import { Field, refusalOf } from '../../ui/form.js';
import { categoryTree } from './category-tree.js';
import { strings } from './strings.js';

type Category = Schema<'Category'>;

const FIELD_OF = {
  ERR_CATEGORY_INVALID_NAME: 'name',
  ERR_CATEGORY_NAME_IN_USE: 'name',
  ERR_CATEGORY_INVALID_DESCRIPTION: 'description',
  ERR_CATEGORY_INVALID_POSITION: 'position',
  ERR_CATEGORY_INVALID_PARENT: 'parentId',
} as const;
type CategoryField = (typeof FIELD_OF)[keyof typeof FIELD_OF];

/** Every category of the company (`GET /categories/all`), refetched by `category` frames (under `catalog`). */
export function useCategories() {
  const { api } = useServices();
  return useQuery({ queryKey: [...keys.catalog, 'categories'], queryFn: () => must(api.GET('/categories/all')) });
}

/** The side list (a row of buttons at a phone's width): every product, then each category with its count. */
export function CategoryList(props: { categories: readonly Category[]; selected: number | null; select: (id: number | null) => void }) {
  const { t } = useScreenStrings('catalog', strings);
  const item = (id: number | null, label: string, count: number | null, depth = 0) => (
    <li key={id ?? 'all'} className={depth ? 'sub' : undefined}>
      <button type="button" aria-pressed={props.selected === id} onClick={() => props.select(id)}>
        {label}
        {count !== null && <span className="muted"> ({count})</span>}
      </button>
    </li>
  );
  return (
    <nav className="category-list" aria-label={t('categories')}>
      <ul>
        {item(null, t('allProducts'), null)}
        {categoryTree(props.categories).map((c) => item(c.id, c.name, c.productsCount, c.depth))}
      </ul>
    </nav>
  );
}

/** Creating or editing a category: name, description, place and parent (a top-level category; one level only). */
export function CategoryDialog({
  category,
  categories,
  close,
}: {
  category: Category | null;
  categories: readonly Category[];
  close: (saved: Category | null) => void;
}) {
  const { t } = useScreenStrings('catalog', strings);
  const { api } = useServices();
  const client = useQueryClient();
  const [name, setName] = useState(category?.name ?? '');
  const [description, setDescription] = useState(category?.description ?? '');
  const [position, setPosition] = useState(String(category?.position ?? 0));
  const [parentId, setParentId] = useState(category?.parentId ? String(category.parentId) : '');
  const parents = categories.filter((c) => c.parentId === null && c.id !== category?.id);
  const save = useMutation({
    mutationFn: () => {
      const body = { name, description, position: Number(position), parentId: parentId ? Number(parentId) : null };
      return category ? must(api.PUT('/categories/{id}', { params: { path: { id: category.id } }, body })) : must(api.POST('/categories', { body }));
    },
    onSuccess: (saved) => {
      void client.invalidateQueries({ queryKey: keys.catalog });
      close(saved);
    },
  });
  const refusal = refusalOf<CategoryField>(t, save.error, FIELD_OF);
  return (
    <FormDialog
      title={category ? t('editCategoryTitle', { name: category.name }) : t('addCategory')}
      description={t('categoryIntro')}
      submitLabel={t('save')}
      onSubmit={() => save.mutate()}
      onClose={() => close(null)}
      pending={save.isPending}
      error={refusal.form}
    >
      <Field label={t('name')} error={refusal.byField.name}>
        {(p) => <input {...p} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" />}
      </Field>
      <Field label={t('description')} error={refusal.byField.description}>
        {(p) => <textarea {...p} rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <Field label={t('parent')} error={refusal.byField.parentId} hint={t('parentHint')}>
        {(p) => (
          <select {...p} value={parentId} onChange={(e) => setParentId(e.target.value)}>
            <option value="">{t('topLevel')}</option>
            {parents.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('position')} error={refusal.byField.position} hint={t('positionHint')}>
        {(p) => <input {...p} type="number" min={0} step={1} value={position} onChange={(e) => setPosition(e.target.value)} />}
      </Field>
    </FormDialog>
  );
}
