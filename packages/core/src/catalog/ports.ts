import type { Page, PageRequest } from '../shared/paging.js';
import type { Category, NewCategory, NewProduct, NewProductImage, Product, ProductImage } from './product.js';
import type { NewProductImport, ProductImport, ProductImportMode, ProductImportProgress } from './product-import.js';

export interface ProductQuery {
  readonly companyId: number;
  readonly page: PageRequest;
  /** In the name or the SKU, case- and accent-folded. */
  readonly search?: string;
  readonly categoryId?: number;
  readonly active?: boolean;
}

/**
 * A company's products and their images. Every method is scoped by `companyId`: another company's
 * product is absent. Two products of a company never share a SKU: `add` and `update` throw
 * ConflictError `ERR_PRODUCT_SKU_IN_USE`.
 */
export interface Products {
  findById(companyId: number, id: number): Promise<Product | null>;
  /** The company's products among `ids` (others absent), in no particular order. */
  findByIds(companyId: number, ids: readonly number[]): Promise<Product[]>;
  findBySku(companyId: number, sku: string): Promise<Product | null>;
  /** By name (folded), then id. */
  list(query: ProductQuery): Promise<Page<Product>>;
  add(product: NewProduct): Promise<Product>;
  /** Saves every field but `companyId`, `createdAt` and `stock` (stock moves only through `moveStock`). */
  update(product: Product): Promise<void>;
  /**
   * Adds `delta` (negative to reserve, positive to release) to the stock of a product that tracks
   * it, in one conditional statement: false, and nothing changed, when the result would be below
   * zero. A product that does not track stock answers true and is not changed. Inside a transaction
   * the row stays locked until it ends.
   */
  moveStock(companyId: number, productId: number, delta: number): Promise<boolean>;
  /** Sets the stock of a product (an operator's count); false when absent. */
  setStock(companyId: number, productId: number, stock: number, at: Date): Promise<boolean>;
  /** Sets `updatedAt` alone, locking the product's row until the transaction ends (changes to its images take turns); false when absent. */
  touch(companyId: number, id: number, at: Date): Promise<boolean>;
  /**
   * Writes a batch of an import in one statement. `create` inserts every row, but a row whose SKU
   * the company has is skipped; `upsert` updates the product with the row's SKU (only the fields
   * of `columns`, plus name and price) or inserts it. Rows of one batch have distinct SKUs.
   */
  importBatch(
    companyId: number,
    rows: readonly ImportedProduct[],
    options: ImportBatchOptions,
    at: Date,
  ): Promise<{ created: number; updated: number; skipped: number }>;
  /** Removes the company's products among `ids` with their images' rows; answers the ids removed. */
  remove(companyId: number, ids: readonly number[]): Promise<number[]>;
  images(companyId: number, productIds: readonly number[]): Promise<ProductImage[]>;
  addImage(image: NewProductImage): Promise<ProductImage>;
  /** False when it was not there (or is another product's). */
  removeImage(companyId: number, productId: number, imageId: number): Promise<ProductImage | null>;
  /** How many products of the company are in each of these categories (absent: none). */
  countByCategories(companyId: number, categoryIds: readonly number[]): Promise<Map<number, number>>;
  /** Takes the products out of these categories (`categoryId` null). */
  detachCategories(companyId: number, categoryIds: readonly number[], at: Date): Promise<void>;
}

/** A product row of an import, cleaned; fields of columns the file lacks hold the defaults. */
export interface ImportedProduct {
  readonly name: string;
  readonly description: string;
  readonly sku: string | null;
  readonly price: number;
  readonly currency: string;
  readonly stock: number;
  readonly trackStock: boolean;
  readonly active: boolean;
  readonly categoryId: number | null;
}

/** The optional columns of an import (name and price are always there); `stock` carries `trackStock`. */
export type ImportedColumn = 'description' | 'sku' | 'currency' | 'stock' | 'active' | 'category';

export interface ImportBatchOptions {
  readonly mode: ProductImportMode;
  /** What an upsert changes on a product it finds. */
  readonly columns: readonly ImportedColumn[];
}

/**
 * A company's categories; two of one parent (or two at the top level) never share a name, ignoring
 * case: `add`, `update` and `remove` (a child moving to the top) throw ConflictError `ERR_CATEGORY_NAME_IN_USE`.
 */
export interface Categories {
  findById(companyId: number, id: number): Promise<Category | null>;
  findByIds(companyId: number, ids: readonly number[]): Promise<Category[]>;
  /** By position, then name, then id; `search` in the name. */
  list(query: { readonly companyId: number; readonly page: PageRequest; readonly search?: string }): Promise<Page<Category>>;
  all(companyId: number): Promise<Category[]>;
  add(category: NewCategory): Promise<Category>;
  update(category: Category): Promise<void>;
  /** Answers the ids removed; their children move to the top level. */
  remove(companyId: number, ids: readonly number[]): Promise<number[]>;
}

/** The company's product imports. */
export interface ProductImports {
  findById(companyId: number, id: number): Promise<ProductImport | null>;
  /** The company's most recent import, or null. */
  latest(companyId: number): Promise<ProductImport | null>;
  /** ConflictError `ERR_PRODUCT_IMPORT_IN_PROGRESS` while the company has one queued or processing. */
  add(entry: NewProductImport): Promise<ProductImport>;
  /**
   * Adds one batch's counts (and its errors, up to 100 kept in all) and marks the import
   * `processing` (its `startedAt` set once), only if it is still queued or processing with exactly
   * `processed` rows done: of two runs writing the same batch, one gets false (and rolls it back).
   */
  advance(companyId: number, id: number, processed: number, progress: ProductImportProgress, at: Date): Promise<boolean>;
  /** Ends a queued or processing import; false when it had already ended. */
  finish(companyId: number, id: number, status: 'completed' | 'failed', error: string | null, at: Date): Promise<boolean>;
}
