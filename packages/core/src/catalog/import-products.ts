import type { Jobs } from '../jobs/jobs.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, DomainError, NotFoundError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import type { CategoryEvent, ProductImportEvent } from './catalog-events.js';
import { categoryViews, type CatalogReads } from './catalog-view.js';
import { cleanImportRow, type CleanRow } from './import-row-rules.js';
import type { ProductRowInput, ProductSheet } from './import-rows.js';
import type { ImportedColumn, ImportedProduct, ProductImports } from './ports.js';
import type { Category } from './product.js';
import {
  toProductImportView,
  type ProductImport,
  type ProductImportMode,
  type ProductImportProgress,
  type ProductImportRowError,
  type ProductImportView,
} from './product-import.js';

/** The one-off job that writes an import's rows. */
export const PRODUCT_IMPORT_JOB = 'catalog.import-products';
/** Rows written per transaction (one statement): a failure loses at most one batch, and other work gets the database in between. */
export const IMPORT_BATCH_ROWS = 500;
/** Batches one run writes before handing over to the next run. */
export const IMPORT_BATCHES_PER_RUN = 10;
/** Tries of a run that keeps failing before the import is marked `failed`. */
export const IMPORT_MAX_ATTEMPTS = 5;
export const MAX_PRODUCT_IMPORT_ROWS = 50_000;
const MAX_FILE_NAME = 255;

export interface ProductImportPayload {
  readonly companyId: number;
  readonly importId: number;
  /** Where the rows wait: also known when the import row is gone (its company was deleted meanwhile). */
  readonly blobKey: string;
}

/**
 * `POST /products/import`: keeps the file's rows in blob storage, records the import as `queued` and
 * enqueues its job in one transaction, and answers the import at once. One import per company at a
 * time (409 `ERR_PRODUCT_IMPORT_IN_PROGRESS`). Admins only.
 */
export class StartProductImport {
  constructor(private readonly deps: { imports: ProductImports; blobs: BlobStorage; jobQueue: Jobs; tx: Transaction; clock: Clock; ids: IdGenerator }) {}

  /** `sheet` is read (the file parsed) only once the caller may import. */
  async execute(input: {
    readonly actor: Actor;
    readonly fileName: string;
    readonly mode?: ProductImportMode;
    readonly sheet: ProductSheet | (() => Promise<ProductSheet>);
  }): Promise<ProductImportView> {
    const { imports, blobs, jobQueue, tx, clock, ids } = this.deps;
    assertAdmin(input.actor);
    const { companyId, userId } = input.actor;
    const running = await imports.latest(companyId);
    if (running && (running.status === 'queued' || running.status === 'processing')) throw new ConflictError('ERR_PRODUCT_IMPORT_IN_PROGRESS');
    const sheet = typeof input.sheet === 'function' ? await input.sheet() : input.sheet;
    if (!sheet.rows.length) throw new ValidationError('ERR_IMPORT_EMPTY');
    if (sheet.rows.length > MAX_PRODUCT_IMPORT_ROWS) throw new PayloadTooLargeError('ERR_IMPORT_TOO_MANY_ROWS');
    const blobKey = `private/company-${companyId}/product-imports/${ids.uuid()}.json`;
    await blobs.put(blobKey, Buffer.from(JSON.stringify(sheet)), 'application/json');
    try {
      const entry = await tx.run(async () => {
        const now = clock.now();
        const added = await imports.add({
          companyId,
          userId,
          status: 'queued',
          mode: input.mode ?? 'create',
          fileName: input.fileName.slice(0, MAX_FILE_NAME) || 'upload',
          total: sheet.rows.length,
          processed: 0,
          created: 0,
          updated: 0,
          skipped: 0,
          failed: 0,
          errors: [],
          error: null,
          createdAt: now,
          startedAt: null,
          finishedAt: null,
        });
        const payload: ProductImportPayload = { companyId, importId: added.id, blobKey };
        await jobQueue.enqueue({ name: PRODUCT_IMPORT_JOB, at: now, payload, key: `product-import-${added.id}` });
        return added;
      });
      return toProductImportView(entry);
    } catch (err) {
      await blobs.delete(blobKey).catch(() => undefined);
      throw err;
    }
  }
}

/** A run found the import further along than it was: another run has it. */
class StaleRun extends Error {}

/**
 * One run of an import's job: writes up to ten batches of 500 rows, each in its own transaction
 * with the import's counts (a compare-and-set on `processed`, so two runs never write a batch
 * twice), publishes `productImport` `progress` after each, then enqueues the next run or ends the
 * import (`completed`, `productImport` `done`). Categories named by rows and missing are created
 * (top level) in the batch's transaction, each announced as `category` `create`. A run that fails
 * is retried from the last batch written; after the last try the import is `failed`.
 */
export class RunProductImport {
  constructor(
    private readonly deps: CatalogReads & {
      imports: ProductImports;
      blobs: BlobStorage;
      jobQueue: Jobs;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<ProductImportEvent | CategoryEvent>;
    },
  ) {}

  async execute(payload: ProductImportPayload, attempt = 1): Promise<void> {
    try {
      await this.run(payload);
    } catch (err) {
      if (attempt < IMPORT_MAX_ATTEMPTS) throw err;
      const entry = await this.deps.imports.findById(payload.companyId, payload.importId);
      if (entry) await this.end(entry, payload.blobKey, 'failed', err instanceof DomainError ? err.code : 'ERR_IMPORT_FAILED');
    }
  }

  private async run(payload: ProductImportPayload): Promise<void> {
    const { imports, blobs, jobQueue, tx, clock, realtime } = this.deps;
    const { companyId, importId, blobKey } = payload;
    let entry = await imports.findById(companyId, importId);
    if (!entry) {
      await blobs.delete(blobKey);
      return;
    }
    if (entry.status === 'completed' || entry.status === 'failed') return;
    const stored = await blobs.get(blobKey);
    if (!stored) return this.end(entry, blobKey, 'failed', 'ERR_IMPORT_FAILED');
    const sheet = JSON.parse(stored.data.toString('utf8')) as ProductSheet;
    const { rows, columns } = sheet;
    // The SKUs of the rows already written: a later row with one of them is refused.
    const seen = new Set<string>();
    for (const r of rows.slice(0, entry.processed)) {
      const clean = cleanImportRow(r);
      if ('product' in clean && clean.product.sku !== null) seen.add(clean.product.sku);
    }
    const options = { mode: entry.mode, columns: columns.filter((c): c is ImportedColumn => c !== 'name' && c !== 'price') };
    for (let n = 0; n < IMPORT_BATCHES_PER_RUN && entry.processed < rows.length; n++) {
      const from = entry.processed;
      const { valid, errors } = validateBatch(rows.slice(from, from + IMPORT_BATCH_ROWS), seen);
      const written = await tx
        .run(async () => {
          const at = clock.now();
          const { ids, created } = await this.categoryIds(companyId, valid, at);
          const items: ImportedProduct[] = valid.map(({ category, ...p }) => ({
            ...p,
            categoryId: category === null ? null : ids.get(categoryKey(category))!,
          }));
          const outcome = items.length ? await this.deps.products.importBatch(companyId, items, options, at) : { created: 0, updated: 0, skipped: 0 };
          const progress: ProductImportProgress = { processed: Math.min(IMPORT_BATCH_ROWS, rows.length - from), ...outcome, failed: errors.length, errors };
          if (!(await imports.advance(companyId, importId, from, progress, at))) throw new StaleRun();
          return categoryViews(this.deps.products, companyId, created);
        })
        .catch((err: unknown) => {
          if (err instanceof StaleRun) return null;
          throw err;
        });
      if (!written) return;
      for (const category of written) await realtime.publish(companyId, { entity: 'category', data: { action: 'create', category } });
      entry = (await imports.findById(companyId, importId))!;
      await realtime.publish(companyId, { entity: 'productImport', data: { action: 'progress', record: toProductImportView(entry) } });
    }
    if (entry.processed < rows.length) {
      await jobQueue.enqueue({ name: PRODUCT_IMPORT_JOB, at: clock.now(), payload, key: `product-import-${importId}-${entry.processed}` });
      return;
    }
    await this.end(entry, blobKey, 'completed', null);
  }

  /**
   * The category of each name the rows give (ignoring case): an existing one (top level first, then
   * the oldest), else one created at the top level.
   */
  private async categoryIds(companyId: number, rows: readonly CleanRow[], at: Date) {
    const { categories } = this.deps;
    const wanted = new Map<string, string>();
    for (const r of rows) if (r.category !== null && !wanted.has(categoryKey(r.category))) wanted.set(categoryKey(r.category), r.category);
    const ids = new Map<string, number>();
    const created: Category[] = [];
    if (!wanted.size) return { ids, created };
    const existing = (await categories.all(companyId)).sort((a, b) => Number(a.parentId !== null) - Number(b.parentId !== null) || a.id - b.id);
    for (const c of existing) if (!ids.has(categoryKey(c.name))) ids.set(categoryKey(c.name), c.id);
    for (const [key, name] of wanted) {
      if (ids.has(key)) continue;
      const category = await categories.add({ companyId, name, description: '', parentId: null, position: 0, active: true, createdAt: at, updatedAt: at });
      ids.set(key, category.id);
      created.push(category);
    }
    return { ids, created };
  }

  private async end(entry: ProductImport, blobKey: string, status: 'completed' | 'failed', error: string | null): Promise<void> {
    const { imports, blobs, clock, realtime } = this.deps;
    if (!(await imports.finish(entry.companyId, entry.id, status, error, clock.now()))) return;
    await blobs.delete(blobKey);
    const ended = await imports.findById(entry.companyId, entry.id);
    if (ended) await realtime.publish(entry.companyId, { entity: 'productImport', data: { action: 'done', record: toProductImportView(ended) } });
  }
}

const categoryKey = (name: string) => name.toLowerCase();

/** Cleans each row (its first fault is its error) and refuses a SKU an earlier row of the file had; `seen` grows with the batch's SKUs. */
function validateBatch(batch: readonly ProductRowInput[], seen: Set<string>) {
  const valid: CleanRow[] = [];
  const errors: ProductImportRowError[] = [];
  for (const r of batch) {
    const clean = cleanImportRow(r);
    if ('error' in clean) {
      errors.push(clean);
    } else if (clean.product.sku !== null && seen.has(clean.product.sku)) {
      errors.push({ row: r.row, field: 'sku', error: 'ERR_PRODUCT_IMPORT_DUPLICATE_SKU' });
    } else {
      if (clean.product.sku !== null) seen.add(clean.product.sku);
      valid.push(clean.product);
    }
  }
  return { valid, errors };
}

/** `GET /products/import/:id`: an import of the company (404 `ERR_IMPORT_NOT_FOUND`). Admins only. */
export class ShowProductImport {
  constructor(private readonly deps: { imports: ProductImports }) {}

  async execute(input: { readonly actor: Actor; readonly importId: number }): Promise<ProductImportView> {
    assertAdmin(input.actor);
    const entry = await this.deps.imports.findById(input.actor.companyId, input.importId);
    if (!entry) throw new NotFoundError('ERR_IMPORT_NOT_FOUND');
    return toProductImportView(entry);
  }
}

/** `GET /products/import/status`: the company's latest import (running or ended), or 404 `ERR_IMPORT_NOT_FOUND` when it never imported. Admins only. */
export class ShowLatestProductImport {
  constructor(private readonly deps: { imports: ProductImports }) {}

  async execute(input: { readonly actor: Actor }): Promise<ProductImportView> {
    assertAdmin(input.actor);
    const entry = await this.deps.imports.latest(input.actor.companyId);
    if (!entry) throw new NotFoundError('ERR_IMPORT_NOT_FOUND');
    return toProductImportView(entry);
  }
}
