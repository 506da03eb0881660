import type { JobDefinition } from '../jobs/job.js';
import { CHECK_NUMBERS_JOB, DEFAULT_CHECK_PACE, type CheckListNumbers, type CheckPace } from './check-list-numbers.js';
import { IMPORT_JOB, IMPORT_MAX_ATTEMPTS, type ImportJobPayload, type RunContactListImport } from './import-contact-list.js';

/** How often the number check runs, and its pace. */
export interface ContactListJobSettings extends CheckPace {
  readonly checkEveryMs: number;
}

export const DEFAULT_CONTACT_LIST_JOB_SETTINGS: ContactListJobSettings = { ...DEFAULT_CHECK_PACE, checkEveryMs: 15_000 };

/** A run may take its ten batches and a slow provider long: leases outlast it by far. */
const LEASE_MS = 5 * 60_000;

/**
 * The contact lists' background work: the runs of each spreadsheet import (one-off jobs, enqueued
 * by the upload and by each run for the next one) and the recurring number check. Neither holds
 * one transaction across its work: each batch, and each company's outcomes, commit on their own.
 */
export function contactListJobs(
  api: { readonly runContactListImport: RunContactListImport; readonly checkListNumbers: CheckListNumbers },
  settings: ContactListJobSettings = DEFAULT_CONTACT_LIST_JOB_SETTINGS,
): JobDefinition<any>[] {
  const importRun: JobDefinition<ImportJobPayload> = {
    name: IMPORT_JOB,
    atomic: false,
    leaseMs: LEASE_MS,
    maxAttempts: IMPORT_MAX_ATTEMPTS,
    run: async (ctx) => {
      await api.runContactListImport.execute(ctx.payload, ctx.attempt);
    },
  };
  const check: JobDefinition = {
    name: CHECK_NUMBERS_JOB,
    every: settings.checkEveryMs,
    atomic: false,
    leaseMs: LEASE_MS,
    run: async () => {
      await api.checkListNumbers.execute(settings);
    },
  };
  return [importRun, check];
}
