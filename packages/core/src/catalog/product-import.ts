/** `create` adds every row (a SKU the catalog has is skipped); `upsert` updates the product with the row's SKU, or adds it. */
export const PRODUCT_IMPORT_MODES = ['create', 'upsert'] as const;
export type ProductImportMode = (typeof PRODUCT_IMPORT_MODES)[number];

export type ProductImportStatus = 'queued' | 'processing' | 'completed' | 'failed';

/** A refused row: its number as the spreadsheet shows it (the header is row 1), the column at fault and the error code. */
export interface ProductImportRowError {
  readonly row: number;
  readonly field: string;
  readonly error: string;
}

/**
 * A spreadsheet import into the catalog: its rows wait in blob storage while a background job
 * writes them batch after batch; the counts say how far it got. A company has at most one import
 * queued or processing at a time.
 */
export interface ProductImport {
  id: number;
  companyId: number;
  userId: number | null;
  status: ProductImportStatus;
  mode: ProductImportMode;
  fileName: string;
  /** Rows of the file with any value (blank rows are not counted). */
  total: number;
  processed: number;
  created: number;
  updated: number;
  /** `create` rows whose SKU the catalog already had. */
  skipped: number;
  /** Rows refused; the first `MAX_REPORTED_IMPORT_ERRORS` are listed in `errors`. */
  failed: number;
  errors: ProductImportRowError[];
  /** Why a failed import stopped (the rows of earlier batches stay). */
  error: string | null;
  createdAt: Date;
  /** When its first batch was written. */
  startedAt: Date | null;
  finishedAt: Date | null;
}

export type NewProductImport = Omit<ProductImport, 'id'>;

/** What one batch adds to an import's counts. */
export interface ProductImportProgress {
  readonly processed: number;
  readonly created: number;
  readonly updated: number;
  readonly skipped: number;
  readonly failed: number;
  readonly errors: readonly ProductImportRowError[];
}

/** The report keeps the first 100 row errors; `failed` counts them all. */
export const MAX_REPORTED_IMPORT_ERRORS = 100;

/** An import as the API and its events show it. */
export interface ProductImportView {
  id: number;
  status: ProductImportStatus;
  mode: ProductImportMode;
  fileName: string;
  total: number;
  processed: number;
  created: number;
  updated: number;
  skipped: number;
  failed: number;
  errors: ProductImportRowError[];
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}

export function toProductImportView(i: ProductImport): ProductImportView {
  return {
    id: i.id,
    status: i.status,
    mode: i.mode,
    fileName: i.fileName,
    total: i.total,
    processed: i.processed,
    created: i.created,
    updated: i.updated,
    skipped: i.skipped,
    failed: i.failed,
    errors: i.errors,
    error: i.error,
    createdAt: i.createdAt.toISOString(),
    startedAt: i.startedAt?.toISOString() ?? null,
    finishedAt: i.finishedAt?.toISOString() ?? null,
  };
}
