import type { RealtimeEvents } from '../realtime/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { CategoryEvent } from './catalog-events.js';
import { cleanCategoryDescription, cleanCategoryName, cleanPosition } from './catalog-rules.js';
import { categoryViews, findCategory, type CatalogReads, type CategoryView } from './catalog-view.js';
import type { Categories } from './ports.js';
import type { Category } from './product.js';

interface WriteDeps extends CatalogReads {
  tx: Transaction;
  clock: Clock;
  realtime: RealtimeEvents<CategoryEvent>;
}

export interface CategoryInput {
  readonly name?: string;
  readonly description?: string;
  /** A top-level category of the company, or null for the top level. */
  readonly parentId?: number | null;
  readonly position?: number;
  readonly active?: boolean;
}

function cleanInput(input: CategoryInput) {
  return {
    ...(input.name !== undefined ? { name: cleanCategoryName(input.name) } : {}),
    ...(input.description !== undefined ? { description: cleanCategoryDescription(input.description) } : {}),
    ...(input.parentId !== undefined ? { parentId: input.parentId } : {}),
    ...(input.position !== undefined ? { position: cleanPosition(input.position) } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
  };
}

/**
 * Categories nest one level: a parent is another top-level category of the company (404 when it
 * is not the company's), and a category with subcategories stays at the top (422 `ERR_CATEGORY_INVALID_PARENT`).
 */
async function checkParent(categories: Categories, companyId: number, parentId: number | null, self?: Category): Promise<void> {
  if (parentId === null) return;
  if (self && parentId === self.id) throw new ValidationError('ERR_CATEGORY_INVALID_PARENT');
  const parent = await findCategory(categories, companyId, parentId);
  if (parent.parentId !== null) throw new ValidationError('ERR_CATEGORY_INVALID_PARENT');
  if (self && (await categories.all(companyId)).some((c) => c.parentId === self.id)) throw new ValidationError('ERR_CATEGORY_INVALID_PARENT');
}

async function categoryView(deps: CatalogReads, category: Category): Promise<CategoryView> {
  return (await categoryViews(deps.products, category.companyId, [category]))[0]!;
}

/** `GET /categories`: a page (20) by position, then name, `searchParam` in the name, as `{categories, count, hasMore}`. Any user of the company. */
export class ListCategories {
  constructor(private readonly deps: CatalogReads) {}

  async execute(input: { readonly actor: Actor; readonly searchParam?: string; readonly pageNumber?: number }) {
    const { companyId } = input.actor;
    const page = pageFromNumber(input.pageNumber);
    const found = await this.deps.categories.list({ companyId, page, ...(input.searchParam?.trim() ? { search: input.searchParam } : {}) });
    return { categories: await categoryViews(this.deps.products, companyId, found.rows), count: found.count, hasMore: hasMore(page, found.count) };
  }
}

/** `GET /categories/all`: every category of the company in the page's order, for pickers. */
export class ListAllCategories {
  constructor(private readonly deps: CatalogReads) {}

  async execute(input: { readonly actor: Actor }): Promise<CategoryView[]> {
    const { companyId } = input.actor;
    return categoryViews(this.deps.products, companyId, await this.deps.categories.all(companyId));
  }
}

/** Adds a category (`name` required; top level, position 0 and active by default). Admins only. Emits `category` `create`. */
export class CreateCategory {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor } & CategoryInput): Promise<CategoryView> {
    const { categories, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    if (input.name === undefined) throw new ValidationError('ERR_CATEGORY_INVALID_NAME');
    const clean = cleanInput(input);
    await checkParent(categories, companyId, clean.parentId ?? null);
    const now = clock.now();
    const category = await categories.add({
      companyId,
      name: clean.name!,
      description: clean.description ?? '',
      parentId: clean.parentId ?? null,
      position: clean.position ?? 0,
      active: clean.active ?? true,
      createdAt: now,
      updatedAt: now,
    });
    const view = await categoryView(this.deps, category);
    await realtime.publish(companyId, { entity: 'category', data: { action: 'create', category: view } });
    return view;
  }
}

/** Changes the fields given. Admins only. Emits `category` `update`. */
export class UpdateCategory {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly categoryId: number } & CategoryInput): Promise<CategoryView> {
    const { categories, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const clean = cleanInput(input);
    const current = await findCategory(categories, companyId, input.categoryId);
    if (clean.parentId !== undefined && clean.parentId !== current.parentId) await checkParent(categories, companyId, clean.parentId, current);
    const next: Category = { ...current, ...clean, updatedAt: clock.now() };
    await categories.update(next);
    const view = await categoryView(this.deps, next);
    await realtime.publish(companyId, { entity: 'category', data: { action: 'update', category: view } });
    return view;
  }
}

/**
 * `DELETE /categories`: the categories of `ids` go, all or none (an id that is not the company's is
 * 404 `ERR_CATEGORY_NOT_FOUND`). While products are in them it is refused with 409
 * `ERR_CATEGORY_IN_USE`, unless `detach`: then their products are taken out (no category) in the same
 * transaction. Their subcategories move to the top level. Admins only. Emits `category` `delete`
 * with the ids, then `update` for each subcategory moved.
 */
export class DeleteCategories {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly ids: readonly number[]; readonly detach?: boolean }): Promise<number[]> {
    const { products, categories, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const ids = [...new Set(input.ids)];
    if (!ids.length) return [];
    const { removed, moved } = await tx.run(async () => {
      const found = await categories.findByIds(companyId, ids);
      if (found.length !== ids.length) throw new NotFoundError('ERR_CATEGORY_NOT_FOUND');
      const counts = await products.countByCategories(companyId, ids);
      if (counts.size) {
        if (!input.detach) throw new ConflictError('ERR_CATEGORY_IN_USE');
        await products.detachCategories(companyId, ids, clock.now());
      }
      const children = (await categories.all(companyId)).filter((c) => c.parentId !== null && ids.includes(c.parentId) && !ids.includes(c.id));
      const gone = await categories.remove(companyId, ids);
      if (gone.length !== ids.length) throw new NotFoundError('ERR_CATEGORY_NOT_FOUND');
      const after = await categories.findByIds(
        companyId,
        children.map((c) => c.id),
      );
      return {
        removed: gone.sort((a, b) => a - b),
        moved: await categoryViews(
          products,
          companyId,
          after.sort((a, b) => a.id - b.id),
        ),
      };
    });
    await realtime.publish(companyId, { entity: 'category', data: { action: 'delete', categoryIds: removed } });
    for (const category of moved) await realtime.publish(companyId, { entity: 'category', data: { action: 'update', category } });
    return removed;
  }
}
