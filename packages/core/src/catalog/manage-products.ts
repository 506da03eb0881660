import type { RealtimeEvents } from '../realtime/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { BlobStorage, Clock, Transaction } from '../shared/ports.js';
import type { ProductEvent } from './catalog-events.js';
import { cleanCurrency, cleanPrice, cleanProductDescription, cleanProductName, cleanSku, cleanStock, DEFAULT_CURRENCY } from './catalog-rules.js';
import { findCategory, findProduct, productView, productViews, type CatalogReads, type ProductView } from './catalog-view.js';
import type { Product } from './product.js';

interface WriteDeps extends CatalogReads {
  blobs: BlobStorage;
  tx: Transaction;
  clock: Clock;
  realtime: RealtimeEvents<ProductEvent>;
}

/** The fields a client sets; absent ones keep their value on an edit (or take their default on a create). */
export interface ProductInput {
  readonly name?: string;
  readonly description?: string;
  readonly sku?: string | null;
  readonly price?: number;
  readonly currency?: string;
  /** Setting a count turns `trackStock` on unless it is given too. */
  readonly stock?: number;
  readonly trackStock?: boolean;
  readonly active?: boolean;
  readonly categoryId?: number | null;
}

/** The most ids one bulk delete request takes (products or categories). */
export const MAX_BULK_IDS = 1000;

/** Deletes stored files once the change that dropped them has committed (a failed delete leaves an orphan, never a dangling key). */
export function dropBlobsAfterCommit(deps: { blobs: BlobStorage; tx: Transaction }, keys: readonly string[]): void {
  if (!keys.length) return;
  deps.tx.afterCommit(() => {
    void Promise.all(keys.map((k) => deps.blobs.delete(k).catch(() => undefined)));
  });
}

/** Checks the fields given, the category against the company (404 `ERR_CATEGORY_NOT_FOUND`). */
async function cleanInput(deps: CatalogReads, companyId: number, input: ProductInput) {
  const clean = {
    ...(input.name !== undefined ? { name: cleanProductName(input.name) } : {}),
    ...(input.description !== undefined ? { description: cleanProductDescription(input.description) } : {}),
    ...(input.sku !== undefined ? { sku: cleanSku(input.sku) } : {}),
    ...(input.price !== undefined ? { price: cleanPrice(input.price) } : {}),
    ...(input.currency !== undefined ? { currency: cleanCurrency(input.currency) } : {}),
    ...(input.stock !== undefined ? { stock: cleanStock(input.stock) } : {}),
    ...(input.trackStock !== undefined ? { trackStock: input.trackStock } : input.stock !== undefined ? { trackStock: true } : {}),
    ...(input.active !== undefined ? { active: input.active } : {}),
    ...(input.categoryId !== undefined ? { categoryId: input.categoryId } : {}),
  };
  if (clean.categoryId != null) await findCategory(deps.categories, companyId, clean.categoryId);
  return clean;
}

/**
 * `GET /products`: a page (20) of the company's products by name, `searchParam` in the name or the
 * SKU (case and accents ignored), optionally of one category or only (in)active ones, as
 * `{products, count, hasMore}`. Any user of the company.
 */
export class ListProducts {
  constructor(private readonly deps: CatalogReads) {}

  async execute(input: {
    readonly actor: Actor;
    readonly searchParam?: string;
    readonly pageNumber?: number;
    readonly categoryId?: number;
    readonly active?: boolean;
  }): Promise<{ products: ProductView[]; count: number; hasMore: boolean }> {
    const { companyId } = input.actor;
    const page = pageFromNumber(input.pageNumber);
    const found = await this.deps.products.list({
      companyId,
      page,
      ...(input.searchParam?.trim() ? { search: input.searchParam } : {}),
      ...(input.categoryId !== undefined ? { categoryId: input.categoryId } : {}),
      ...(input.active !== undefined ? { active: input.active } : {}),
    });
    return { products: await productViews(this.deps, companyId, found.rows), count: found.count, hasMore: hasMore(page, found.count) };
  }
}

export class ShowProduct {
  constructor(private readonly deps: CatalogReads) {}

  async execute(input: { readonly actor: Actor; readonly productId: number }): Promise<ProductView> {
    return productView(this.deps, await findProduct(this.deps.products, input.actor.companyId, input.productId));
  }
}

/**
 * Adds a product: `name` and `price` (minor units) are required, `currency` defaults to BRL,
 * `active` to true; stock is counted only with `trackStock` (on when a `stock` is given). Admins
 * only; a SKU another product has is 409 `ERR_PRODUCT_SKU_IN_USE`. Emits `product` `create`.
 */
export class CreateProduct {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor } & ProductInput): Promise<ProductView> {
    const { products, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    if (input.name === undefined) throw new ValidationError('ERR_PRODUCT_INVALID_NAME');
    if (input.price === undefined) throw new ValidationError('ERR_PRODUCT_INVALID_PRICE');
    const clean = await cleanInput(this.deps, companyId, input);
    const now = clock.now();
    const product = await products.add({
      companyId,
      name: clean.name!,
      description: clean.description ?? '',
      sku: clean.sku ?? null,
      price: clean.price!,
      currency: clean.currency ?? DEFAULT_CURRENCY,
      stock: clean.stock ?? 0,
      trackStock: clean.trackStock ?? false,
      active: clean.active ?? true,
      categoryId: clean.categoryId ?? null,
      createdAt: now,
      updatedAt: now,
    });
    const view = await productView(this.deps, product);
    await realtime.publish(companyId, { entity: 'product', data: { action: 'create', product: view } });
    return view;
  }
}

/**
 * Changes the fields given; a `stock` given is the new count (an operator's), written apart from the
 * other fields as stock only ever moves through its own statements. Admins only. Emits `product` `update`.
 */
export class UpdateProduct {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly productId: number } & ProductInput): Promise<ProductView> {
    const { products, tx, clock, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const clean = await cleanInput(this.deps, companyId, input);
    const view = await tx.run(async () => {
      const now = clock.now();
      // Its row is locked first: an edit and an order reserving stock take turns.
      if (!(await products.touch(companyId, input.productId, now))) throw new NotFoundError('ERR_PRODUCT_NOT_FOUND');
      const current = await findProduct(products, companyId, input.productId);
      const { stock, ...fields } = clean;
      const next: Product = { ...current, ...fields, updatedAt: now };
      await products.update(next);
      if (stock !== undefined) await products.setStock(companyId, next.id, stock, now);
      return productView(this.deps, await findProduct(products, companyId, next.id));
    });
    await realtime.publish(companyId, { entity: 'product', data: { action: 'update', product: view } });
    return view;
  }
}

/**
 * `DELETE /products`: the products of `ids` go with their images (the files deleted once the change
 * has committed), all or none: an id that is not one of the company's products is 404
 * `ERR_PRODUCT_NOT_FOUND` and nothing is deleted. Admins only. Emits one `product` `delete` with the ids.
 */
export class DeleteProducts {
  constructor(private readonly deps: WriteDeps) {}

  async execute(input: { readonly actor: Actor; readonly ids: readonly number[] }): Promise<number[]> {
    const { products, tx, realtime } = this.deps;
    assertAdmin(input.actor);
    const { companyId } = input.actor;
    const ids = [...new Set(input.ids)];
    if (!ids.length) return [];
    const removed = await tx.run(async () => {
      const found = await products.findByIds(companyId, ids);
      if (found.length !== ids.length) throw new NotFoundError('ERR_PRODUCT_NOT_FOUND');
      const images = await products.images(companyId, ids);
      const gone = await products.remove(companyId, ids);
      if (gone.length !== ids.length) throw new NotFoundError('ERR_PRODUCT_NOT_FOUND');
      dropBlobsAfterCommit(
        this.deps,
        images.map((i) => i.key),
      );
      return gone.sort((a, b) => a - b);
    });
    await realtime.publish(companyId, { entity: 'product', data: { action: 'delete', productIds: removed } });
    return removed;
  }
}
