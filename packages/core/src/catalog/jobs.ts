import type { JobDefinition } from '../jobs/job.js';
import { IMPORT_MAX_ATTEMPTS, PRODUCT_IMPORT_JOB, type ProductImportPayload, type RunProductImport } from './import-products.js';

/** A run writes ten batches in their own transactions: its lease outlasts it by far. */
const LEASE_MS = 5 * 60_000;

/**
 * The catalog's background work: the runs of each product import (one-off jobs, enqueued by the
 * upload and by each run for the next one). A run opens a transaction per batch, none across them.
 */
export function catalogJobs(api: { readonly runProductImport: RunProductImport }): JobDefinition<any>[] {
  const importRun: JobDefinition<ProductImportPayload> = {
    name: PRODUCT_IMPORT_JOB,
    atomic: false,
    leaseMs: LEASE_MS,
    maxAttempts: IMPORT_MAX_ATTEMPTS,
    run: async (ctx) => {
      await api.runProductImport.execute(ctx.payload, ctx.attempt);
    },
  };
  return [importRun];
}
