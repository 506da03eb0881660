import type { Categories, ImportBatchOptions, ImportedProduct, ProductImports, ProductQuery, Products } from '../catalog/ports.js';
import type { Category, NewCategory, NewProduct, NewProductImage, Product, ProductImage } from '../catalog/product.js';
import { MAX_REPORTED_IMPORT_ERRORS, type NewProductImport, type ProductImport, type ProductImportProgress } from '../catalog/product-import.js';
import { ConflictError, NotFoundError } from '../shared/errors.js';
import type { PageRequest } from '../shared/paging.js';
import { foldForSearch } from '../shared/text.js';
import { compareFolded, InMemoryTable, slice } from './table.js';

const byName = (a: { name: string; id: number }, b: { name: string; id: number }) => compareFolded(a.name, b.name) || a.id - b.id;
const byPosition = (a: Category, b: Category) => a.position - b.position || byName(a, b);

/** Products and their images; a SKU appears once per company, as the unique constraint keeps it. */
export class InMemoryProducts implements Products {
  readonly table = new InMemoryTable<Product>();
  readonly imageTable = new InMemoryTable<ProductImage>();

  /** The categories a product may point to (the foreign key). */
  constructor(private readonly categories: InMemoryCategories) {}

  private mine(companyId: number, id: number) {
    const p = this.table.get(id);
    return p?.companyId === companyId ? p : null;
  }
  private check(p: NewProduct, exceptId?: number) {
    if (p.sku !== null && this.table.find((o) => o.companyId === p.companyId && o.sku === p.sku && o.id !== exceptId))
      throw new ConflictError('ERR_PRODUCT_SKU_IN_USE');
    if (p.categoryId !== null && !this.categories.table.get(p.categoryId)) throw new NotFoundError('ERR_CATEGORY_NOT_FOUND');
  }

  async findById(companyId: number, id: number) {
    return this.mine(companyId, id);
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    const wanted = new Set(ids);
    return this.table.filter((p) => p.companyId === companyId && wanted.has(p.id));
  }
  async findBySku(companyId: number, sku: string) {
    return this.table.find((p) => p.companyId === companyId && p.sku === sku);
  }
  async list(q: ProductQuery) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    const rows = this.table
      .filter(
        (p) =>
          p.companyId === q.companyId &&
          (!term || foldForSearch(p.name).includes(term) || (p.sku !== null && foldForSearch(p.sku).includes(term))) &&
          (q.categoryId === undefined || p.categoryId === q.categoryId) &&
          (q.active === undefined || p.active === q.active),
      )
      .sort(byName);
    return slice(rows, q.page);
  }
  async add(product: NewProduct) {
    this.check(product);
    return this.table.insert(product);
  }
  async update(product: Product) {
    const stored = this.mine(product.companyId, product.id);
    if (!stored) return;
    this.check(product, product.id);
    this.table.replace({ ...product, companyId: stored.companyId, createdAt: stored.createdAt, stock: stored.stock });
  }
  async moveStock(companyId: number, productId: number, delta: number) {
    const stored = this.mine(companyId, productId);
    if (!stored) return false;
    if (!stored.trackStock) return true;
    if (stored.stock + delta < 0) return false;
    this.table.replace({ ...stored, stock: stored.stock + delta });
    return true;
  }
  async setStock(companyId: number, productId: number, stock: number, at: Date) {
    const stored = this.mine(companyId, productId);
    if (!stored) return false;
    this.table.replace({ ...stored, stock, updatedAt: at });
    return true;
  }
  async touch(companyId: number, id: number, at: Date) {
    const stored = this.mine(companyId, id);
    if (!stored) return false;
    this.table.replace({ ...stored, updatedAt: at });
    return true;
  }
  async importBatch(companyId: number, rows: readonly ImportedProduct[], options: ImportBatchOptions, at: Date) {
    const outcome = { created: 0, updated: 0, skipped: 0 };
    const has = (c: ImportBatchOptions['columns'][number]) => options.columns.includes(c);
    for (const row of rows) {
      const existing = row.sku === null ? null : await this.findBySku(companyId, row.sku);
      if (!existing) {
        this.check({ ...row, companyId, createdAt: at, updatedAt: at });
        this.table.insert({ ...row, companyId, createdAt: at, updatedAt: at });
        outcome.created++;
      } else if (options.mode === 'create') {
        outcome.skipped++;
      } else {
        this.table.replace({
          ...existing,
          name: row.name,
          price: row.price,
          updatedAt: at,
          ...(has('description') ? { description: row.description } : {}),
          ...(has('currency') ? { currency: row.currency } : {}),
          ...(has('stock') ? { stock: row.stock, trackStock: row.trackStock } : {}),
          ...(has('active') ? { active: row.active } : {}),
          ...(has('category') ? { categoryId: row.categoryId } : {}),
        });
        outcome.updated++;
      }
    }
    return outcome;
  }
  async remove(companyId: number, ids: readonly number[]) {
    const gone = (await this.findByIds(companyId, ids)).map((p) => p.id);
    for (const id of gone) {
      this.table.delete(id);
      for (const i of this.imageTable.filter((i) => i.productId === id)) this.imageTable.delete(i.id);
    }
    return gone;
  }
  async images(companyId: number, productIds: readonly number[]) {
    const wanted = new Set(productIds);
    return this.imageTable
      .filter((i) => i.companyId === companyId && wanted.has(i.productId))
      .sort((a, b) => a.productId - b.productId || a.position - b.position || a.id - b.id);
  }
  async addImage(image: NewProductImage) {
    return this.imageTable.insert(image);
  }
  async removeImage(companyId: number, productId: number, imageId: number) {
    const image = this.imageTable.get(imageId);
    if (!image || image.companyId !== companyId || image.productId !== productId) return null;
    this.imageTable.delete(imageId);
    return image;
  }
  async countByCategories(companyId: number, categoryIds: readonly number[]) {
    const wanted = new Set(categoryIds);
    const counts = new Map<number, number>();
    for (const p of this.table.filter((p) => p.companyId === companyId && p.categoryId !== null && wanted.has(p.categoryId))) {
      counts.set(p.categoryId!, (counts.get(p.categoryId!) ?? 0) + 1);
    }
    return counts;
  }
  async detachCategories(companyId: number, categoryIds: readonly number[], at: Date) {
    const wanted = new Set(categoryIds);
    for (const p of this.table.filter((p) => p.companyId === companyId && p.categoryId !== null && wanted.has(p.categoryId))) {
      this.table.replace({ ...p, categoryId: null, updatedAt: at });
    }
  }
}

/** Categories; a name appears once per parent (ignoring case), as the unique index keeps it. */
export class InMemoryCategories implements Categories {
  readonly table = new InMemoryTable<Category>();
  /** The products pointing to categories (the foreign key refuses removing one in use): set once both exist. */
  products: InMemoryProducts | null = null;

  private mine(companyId: number, id: number) {
    const c = this.table.get(id);
    return c?.companyId === companyId ? c : null;
  }
  private clash(companyId: number, parentId: number | null, name: string, exceptIds: readonly number[]) {
    const key = name.toLowerCase();
    return this.table.find((c) => c.companyId === companyId && c.parentId === parentId && c.name.toLowerCase() === key && !exceptIds.includes(c.id)) !== null;
  }

  async findById(companyId: number, id: number) {
    return this.mine(companyId, id);
  }
  async findByIds(companyId: number, ids: readonly number[]) {
    const wanted = new Set(ids);
    return this.table.filter((c) => c.companyId === companyId && wanted.has(c.id));
  }
  async list(q: { readonly companyId: number; readonly page: PageRequest; readonly search?: string }) {
    const term = q.search?.trim() ? foldForSearch(q.search) : '';
    return slice(this.table.filter((c) => c.companyId === q.companyId && (!term || foldForSearch(c.name).includes(term))).sort(byPosition), q.page);
  }
  async all(companyId: number) {
    return this.table.filter((c) => c.companyId === companyId).sort(byPosition);
  }
  private check(category: NewCategory, exceptIds: readonly number[]) {
    if (category.parentId !== null && !this.table.get(category.parentId)) throw new NotFoundError('ERR_CATEGORY_NOT_FOUND');
    if (this.clash(category.companyId, category.parentId, category.name, exceptIds)) throw new ConflictError('ERR_CATEGORY_NAME_IN_USE');
  }

  async add(category: NewCategory) {
    this.check(category, []);
    return this.table.insert(category);
  }
  async update(category: Category) {
    const stored = this.mine(category.companyId, category.id);
    if (!stored) return;
    this.check(category, [category.id]);
    this.table.replace({ ...category, companyId: stored.companyId, createdAt: stored.createdAt });
  }
  async remove(companyId: number, ids: readonly number[]) {
    const gone = (await this.findByIds(companyId, ids)).map((c) => c.id);
    if (this.products && (await this.products.countByCategories(companyId, gone)).size) throw new ConflictError('ERR_CATEGORY_IN_USE');
    const children = this.table.filter((c) => c.parentId !== null && gone.includes(c.parentId) && !gone.includes(c.id));
    const moved = children.map((c) => c.id);
    for (const [i, c] of children.entries()) {
      const twin = children.slice(0, i).some((o) => o.name.toLowerCase() === c.name.toLowerCase());
      if (twin || this.clash(companyId, null, c.name, [...gone, ...moved])) throw new ConflictError('ERR_CATEGORY_NAME_IN_USE');
    }
    for (const c of children) this.table.replace({ ...c, parentId: null });
    for (const id of gone) this.table.delete(id);
    return gone;
  }
}

/** Product imports; one queued or processing per company, as the partial unique index keeps it. */
export class InMemoryProductImports implements ProductImports {
  readonly table = new InMemoryTable<ProductImport>();

  private mine(companyId: number, id: number) {
    const i = this.table.get(id);
    return i?.companyId === companyId ? i : null;
  }
  private open = (i: ProductImport) => i.status === 'queued' || i.status === 'processing';

  async findById(companyId: number, id: number) {
    return this.mine(companyId, id);
  }
  async latest(companyId: number) {
    return this.table.filter((i) => i.companyId === companyId).sort((a, b) => b.id - a.id)[0] ?? null;
  }
  async add(entry: NewProductImport) {
    if (this.table.find((i) => i.companyId === entry.companyId && this.open(i))) throw new ConflictError('ERR_PRODUCT_IMPORT_IN_PROGRESS');
    return this.table.insert(entry);
  }
  async advance(companyId: number, id: number, processed: number, p: ProductImportProgress, at: Date) {
    const stored = this.mine(companyId, id);
    if (!stored || !this.open(stored) || stored.processed !== processed) return false;
    this.table.replace({
      ...stored,
      status: 'processing',
      startedAt: stored.startedAt ?? at,
      processed: stored.processed + p.processed,
      created: stored.created + p.created,
      updated: stored.updated + p.updated,
      skipped: stored.skipped + p.skipped,
      failed: stored.failed + p.failed,
      errors: [...stored.errors, ...p.errors].slice(0, MAX_REPORTED_IMPORT_ERRORS),
    });
    return true;
  }
  async finish(companyId: number, id: number, status: 'completed' | 'failed', error: string | null, at: Date) {
    const stored = this.mine(companyId, id);
    if (!stored || !this.open(stored)) return false;
    this.table.replace({ ...stored, status, error, finishedAt: at });
    return true;
  }
}

/** The catalog's three ports in memory, the categories knowing the products that point to them. */
export function inMemoryCatalogPorts() {
  const categories = new InMemoryCategories();
  const products = new InMemoryProducts(categories);
  categories.products = products;
  return { products, categories, productImports: new InMemoryProductImports() };
}
