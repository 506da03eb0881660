import { ForeignKeyConstraintViolationException, UniqueConstraintViolationException, type MikroORM } from '@mikro-orm/core';
import { ConflictError, NotFoundError, type PageRequest } from '@servicedesk/core';
import type { Categories, ImportBatchOptions, ImportedProduct, ProductImports, ProductQuery, Products } from '@servicedesk/core/catalog/ports';
import type { Category, NewCategory, NewProduct, NewProductImage, Product, ProductImage } from '@servicedesk/core/catalog/product';
import { MAX_REPORTED_IMPORT_ERRORS, type NewProductImport, type ProductImport, type ProductImportProgress } from '@servicedesk/core/catalog/product-import';
import { MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, searchWhere } from '../shared/search.js';
import { marks } from '../shared/sql.js';
import { CategorySchema, ProductImageSchema, ProductImportSchema, ProductSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** A positive int4: anything else names no row (and must not reach an int4 parameter). */
const isId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;
const validIds = (ids: readonly number[]) => [...new Set(ids)].filter(isId);
type IdRow = { id: number };

/**
 * The constraints decide what two writers race for: a SKU two products take, a category deleted while
 * a product is put in it (or a category still holding products), a name two sibling categories take,
 * a second import while one is open.
 */
async function constrained<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const message = err instanceof Error ? err.message : '';
    if (err instanceof UniqueConstraintViolationException) {
      if (message.includes('products_company_sku_unique')) throw new ConflictError('ERR_PRODUCT_SKU_IN_USE');
      if (message.includes('categories_sibling_name_idx')) throw new ConflictError('ERR_CATEGORY_NAME_IN_USE');
      if (message.includes('product_imports_open_idx')) throw new ConflictError('ERR_PRODUCT_IMPORT_IN_PROGRESS');
    }
    if (err instanceof ForeignKeyConstraintViolationException) {
      // A product (or a subcategory) written with a category deleted meanwhile.
      if (
        /insert or update on table "(products|categories)" violates foreign key constraint "(products_category_id|categories_parent_id)_fkey"/.test(message)
      ) {
        throw new NotFoundError('ERR_CATEGORY_NOT_FOUND');
      }
      // A category deleted while products are still in it.
      if (message.includes('update or delete on table "categories" violates foreign key constraint "products_category_id_fkey"')) {
        throw new ConflictError('ERR_CATEGORY_IN_USE');
      }
    }
    throw err;
  }
}

const PRODUCT_COLUMNS = '(company_id, name, description, sku, price, currency, stock, track_stock, active, category_id, created_at, updated_at)';

export class MikroOrmProducts extends MikroOrmRepository implements Products {
  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    return this.em.findOne(ProductSchema, { id, companyId }, READ);
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    const wanted = validIds(ids);
    if (!wanted.length) return [];
    return this.em.find(ProductSchema, { companyId, id: { $in: wanted } }, READ);
  }
  async findBySku(companyId: number, sku: string) {
    return this.em.findOne(ProductSchema, { companyId, sku }, READ);
  }
  async list(q: ProductQuery) {
    const where: Record<string, unknown> = { companyId: q.companyId, ...searchWhere(['name', 'sku'], q.search) };
    if (q.categoryId !== undefined) where.categoryId = isId(q.categoryId) ? q.categoryId : -1;
    if (q.active !== undefined) where.active = q.active;
    const [rows, count] = await this.em.findAndCount(ProductSchema, where, {
      ...READ,
      orderBy: [foldedOrder('name'), { id: 'asc' }],
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }
  async add(product: NewProduct): Promise<Product> {
    const id = (await constrained(() => this.em.insert(ProductSchema, { ...product } as Product))) as number;
    return { ...product, id };
  }
  async update(product: Product) {
    const { id, companyId, createdAt, stock, ...fields } = product;
    void createdAt;
    void stock;
    if (!isId(id)) return;
    await constrained(() => this.em.nativeUpdate(ProductSchema, { id, companyId }, fields));
  }
  async moveStock(companyId: number, productId: number, delta: number) {
    if (!isId(productId)) return false;
    // Under concurrent moves the row lock orders them, and PostgreSQL checks the condition again on the row each one finds.
    const rows = await this.em.execute<IdRow[]>(
      `update products set stock = case when track_stock then stock + ? else stock end
       where id = ? and company_id = ? and (not track_stock or stock + ? >= 0) returning id`,
      [delta, productId, companyId, delta],
    );
    return rows.length > 0;
  }
  async setStock(companyId: number, productId: number, stock: number, at: Date) {
    if (!isId(productId)) return false;
    return (await this.em.nativeUpdate(ProductSchema, { id: productId, companyId }, { stock, updatedAt: at })) > 0;
  }
  async touch(companyId: number, id: number, at: Date) {
    if (!isId(id)) return false;
    return (await this.em.nativeUpdate(ProductSchema, { id, companyId }, { updatedAt: at })) > 0;
  }
  async importBatch(companyId: number, rows: readonly ImportedProduct[], options: ImportBatchOptions, at: Date) {
    if (!rows.length) return { created: 0, updated: 0, skipped: 0 };
    const params = rows.flatMap((r) => [companyId, r.name, r.description, r.sku, r.price, r.currency, r.stock, r.trackStock, r.active, r.categoryId, at, at]);
    const values = marks(rows.length, '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)');
    if (options.mode === 'create') {
      const written = await constrained(() =>
        this.em.execute<IdRow[]>(`insert into products ${PRODUCT_COLUMNS} values ${values} on conflict (company_id, sku) do nothing returning id`, params),
      );
      return { created: written.length, updated: 0, skipped: rows.length - written.length };
    }
    const has = (c: ImportBatchOptions['columns'][number]) => options.columns.includes(c);
    const sets = [
      'name = excluded.name',
      'price = excluded.price',
      ...(has('description') ? ['description = excluded.description'] : []),
      ...(has('currency') ? ['currency = excluded.currency'] : []),
      ...(has('stock') ? ['stock = excluded.stock', 'track_stock = excluded.track_stock'] : []),
      ...(has('active') ? ['active = excluded.active'] : []),
      ...(has('category') ? ['category_id = excluded.category_id'] : []),
      'updated_at = excluded.updated_at',
    ];
    // `xmax = 0` tells the rows this statement inserted from those it updated.
    const written = await constrained(() =>
      this.em.execute<Array<{ inserted: boolean | string }>>(
        `insert into products as p ${PRODUCT_COLUMNS} values ${values}
       on conflict (company_id, sku) do update set ${sets.join(', ')} returning (p.xmax = 0) as inserted`,
        params,
      ),
    );
    const created = written.filter((w) => w.inserted === true || String(w.inserted) === 'true').length;
    return { created, updated: written.length - created, skipped: 0 };
  }
  async remove(companyId: number, ids: readonly number[]) {
    const wanted = validIds(ids);
    if (!wanted.length) return [];
    const rows = await this.em.execute<IdRow[]>(`delete from products where company_id = ? and id in (${marks(wanted.length)}) returning id`, [
      companyId,
      ...wanted,
    ]);
    return rows.map((r) => Number(r.id));
  }
  async images(companyId: number, productIds: readonly number[]): Promise<ProductImage[]> {
    const wanted = validIds(productIds);
    if (!wanted.length) return [];
    return this.em.find(
      ProductImageSchema,
      { companyId, productId: { $in: wanted } },
      {
        ...READ,
        orderBy: [{ productId: 'asc' }, { position: 'asc' }, { id: 'asc' }],
      },
    );
  }
  async addImage(image: NewProductImage): Promise<ProductImage> {
    const id = (await this.em.insert(ProductImageSchema, { ...image } as ProductImage)) as number;
    return { ...image, id };
  }
  async removeImage(companyId: number, productId: number, imageId: number) {
    if (!isId(productId) || !isId(imageId)) return null;
    const image = await this.em.findOne(ProductImageSchema, { id: imageId, companyId, productId }, READ);
    if (!image) return null;
    return (await this.em.nativeDelete(ProductImageSchema, { id: imageId, companyId, productId })) > 0 ? image : null;
  }
  async countByCategories(companyId: number, categoryIds: readonly number[]) {
    const counts = new Map<number, number>();
    const wanted = validIds(categoryIds);
    if (!wanted.length) return counts;
    const rows = await this.em.execute<Array<{ category_id: number; n: number | string }>>(
      `select category_id, count(*) as n from products where company_id = ? and category_id in (${marks(wanted.length)}) group by category_id`,
      [companyId, ...wanted],
    );
    for (const r of rows) counts.set(Number(r.category_id), Number(r.n));
    return counts;
  }
  async detachCategories(companyId: number, categoryIds: readonly number[], at: Date) {
    const wanted = validIds(categoryIds);
    if (!wanted.length) return;
    await this.em.nativeUpdate(ProductSchema, { companyId, categoryId: { $in: wanted } }, { categoryId: null, updatedAt: at });
  }
}

/** By position, then folded name, then id; built per query (a raw fragment is used once). */
const byPosition = () => [{ position: 'asc' as const }, foldedOrder('name'), { id: 'asc' as const }];

export class MikroOrmCategories extends MikroOrmRepository implements Categories {
  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    return this.em.findOne(CategorySchema, { id, companyId }, READ);
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    const wanted = validIds(ids);
    if (!wanted.length) return [];
    return this.em.find(CategorySchema, { companyId, id: { $in: wanted } }, READ);
  }
  async list(q: { readonly companyId: number; readonly page: PageRequest; readonly search?: string }) {
    const [rows, count] = await this.em.findAndCount(
      CategorySchema,
      { companyId: q.companyId, ...searchWhere(['name'], q.search) },
      {
        ...READ,
        orderBy: byPosition(),
        offset: q.page.offset,
        limit: q.page.limit,
      },
    );
    return { rows, count };
  }
  async all(companyId: number) {
    return this.em.find(CategorySchema, { companyId }, { ...READ, orderBy: byPosition() });
  }
  async add(category: NewCategory): Promise<Category> {
    const id = (await constrained(() => this.em.insert(CategorySchema, { ...category } as Category))) as number;
    return { ...category, id };
  }
  async update(category: Category) {
    const { id, companyId, createdAt, ...fields } = category;
    void createdAt;
    if (!isId(id)) return;
    await constrained(() => this.em.nativeUpdate(CategorySchema, { id, companyId }, fields));
  }
  async remove(companyId: number, ids: readonly number[]) {
    const wanted = validIds(ids);
    if (!wanted.length) return [];
    const rows = await constrained(() =>
      this.em.execute<IdRow[]>(`delete from categories where company_id = ? and id in (${marks(wanted.length)}) returning id`, [companyId, ...wanted]),
    );
    return rows.map((r) => Number(r.id));
  }
}

export class MikroOrmProductImports extends MikroOrmRepository implements ProductImports {
  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    return this.em.findOne(ProductImportSchema, { id, companyId }, READ);
  }
  async latest(companyId: number) {
    return this.em.findOne(ProductImportSchema, { companyId }, { ...READ, orderBy: { id: 'desc' } });
  }
  async add(entry: NewProductImport): Promise<ProductImport> {
    const id = (await constrained(() => this.em.insert(ProductImportSchema, { ...entry } as ProductImport))) as number;
    return { ...entry, id };
  }
  async advance(companyId: number, id: number, processed: number, p: ProductImportProgress, at: Date) {
    const rows = await this.em.execute<IdRow[]>(
      `update product_imports set status = 'processing', started_at = coalesce(started_at, ?), processed = processed + ?, created = created + ?,
         updated = updated + ?, skipped = skipped + ?, failed = failed + ?,
         errors = (select coalesce(jsonb_agg(t.e order by t.n), cast('[]' as jsonb))
                   from jsonb_array_elements(product_imports.errors || cast(? as jsonb)) with ordinality as t(e, n) where t.n <= ?)
       where id = ? and company_id = ? and status in ('queued', 'processing') and processed = ? returning id`,
      [at, p.processed, p.created, p.updated, p.skipped, p.failed, JSON.stringify(p.errors), MAX_REPORTED_IMPORT_ERRORS, id, companyId, processed],
    );
    return rows.length > 0;
  }
  async finish(companyId: number, id: number, status: 'completed' | 'failed', error: string | null, at: Date) {
    const rows = await this.em.execute<IdRow[]>(
      `update product_imports set status = ?, error = ?, finished_at = ?
       where id = ? and company_id = ? and status in ('queued', 'processing') returning id`,
      [status, error, at, id, companyId],
    );
    return rows.length > 0;
  }
}

/** The catalog's tables on one database. */
export const catalogRepositories = (orm: MikroORM) => ({
  products: new MikroOrmProducts(orm),
  categories: new MikroOrmCategories(orm),
  productImports: new MikroOrmProductImports(orm),
});
