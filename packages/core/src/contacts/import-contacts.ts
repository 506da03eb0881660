import type { Actor } from '../shared/actor.js';
import type { ContactImportRow, Contacts } from './ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { ContactImportEvent } from './contact-events.js';
import type { BackgroundJobs } from '../shared/background-jobs.js';
import { DomainError, NotFoundError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { Cache, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { cleanContactEmail, cleanContactName, cleanContactNumber } from './contact-rules.js';
import type { ImportRowInput } from './import-table.js';
import { canonicalPhone } from './phone-numbers.js';

/** Rows written per transaction: a failure loses at most one batch, and other requests get the database in between. */
export const IMPORT_BATCH_SIZE = 500;
export const MAX_IMPORT_ROWS = 50_000;
/** The report keeps the first 1,000 row errors; `failed` counts them all. */
export const MAX_REPORTED_IMPORT_ERRORS = 1000;
/** How long the report of an import stays retrievable. */
export const IMPORT_REPORT_TTL_SECONDS = 24 * 3600;

export interface ImportRowError {
  readonly row: number;
  readonly reason: string;
}

export type ContactImportSource = 'file' | 'list' | 'addressBook';

/** The progress, then the report, of one import. */
export interface ContactImportStatus {
  importId: string;
  source: ContactImportSource;
  fileName: string | null;
  status: 'running' | 'done' | 'failed';
  total: number;
  processed: number;
  created: number;
  /** Rows that reached an existing contact, or repeated an earlier row of the import, and were merged. */
  merged: number;
  /** Rows refused, each with its reason; only the first 1,000 are listed in `errors`. */
  failed: number;
  errors: ImportRowError[];
  errorsTruncated: boolean;
  /** Why a failed import stopped (the rows of earlier batches stay imported). */
  error: string | null;
  startedAt: string;
  finishedAt: string | null;
}

const reportKey = (companyId: number, importId: string) => `contacts:import:${companyId}:${importId}`;

interface Deps {
  contacts: Contacts;
  cache: Cache;
  jobs: BackgroundJobs;
  realtime: RealtimeEvents<ContactImportEvent>;
  tx: Transaction;
  clock: Clock;
  ids: IdGenerator;
}

/**
 * Starts an import and answers at once with its status; the rows are written in the background,
 * 500 per transaction. After each batch the company's namespace gets `contactImport`
 * `{ action: 'progress', …counts, errors: <that batch's> }`, and at the end `{ action: 'done',
 * …the report }`; the report stays readable for a day (`ShowContactImport`).
 */
export class StartContactImport {
  constructor(private readonly deps: Deps) {}

  async execute(input: { actor: Actor; rows: readonly ImportRowInput[]; source: ContactImportSource; fileName?: string | null }): Promise<ContactImportStatus> {
    const { cache, jobs, clock, ids } = this.deps;
    if (!input.rows.length && input.source !== 'addressBook') throw new ValidationError('ERR_IMPORT_EMPTY');
    if (input.rows.length > MAX_IMPORT_ROWS) throw new PayloadTooLargeError('ERR_IMPORT_TOO_MANY_ROWS');
    const companyId = input.actor.companyId;
    const status: ContactImportStatus = {
      importId: ids.uuid(),
      source: input.source,
      fileName: input.fileName ?? null,
      status: 'running',
      total: input.rows.length,
      processed: 0,
      created: 0,
      merged: 0,
      failed: 0,
      errors: [],
      errorsTruncated: false,
      error: null,
      startedAt: clock.now().toISOString(),
      finishedAt: null,
    };
    await cache.set(reportKey(companyId, status.importId), JSON.stringify(status), IMPORT_REPORT_TTL_SECONDS);
    const rows = [...input.rows];
    jobs.start(`contact-import ${status.importId}`, () => this.run(companyId, structuredClone(status), rows));
    return status;
  }

  private async run(companyId: number, status: ContactImportStatus, rows: readonly ImportRowInput[]): Promise<void> {
    const { contacts, tx, clock } = this.deps;
    try {
      for (let start = 0; start < rows.length; start += IMPORT_BATCH_SIZE) {
        // A turn of the event loop between batches: on an in-process database the batches would
        // otherwise run back to back in one turn, and the progress frames (and every request) wait
        // until the import ends.
        if (start > 0) await new Promise<void>((resolve) => setImmediate(resolve));
        const batch = rows.slice(start, start + IMPORT_BATCH_SIZE);
        const { valid, errors, repeated } = validateBatch(batch);
        const outcome = valid.length ? await tx.run(() => contacts.importBatch(companyId, valid, clock.now())) : { created: 0, merged: 0 };
        status.processed += batch.length;
        status.created += outcome.created;
        status.merged += outcome.merged + repeated;
        status.failed += errors.length;
        const room = MAX_REPORTED_IMPORT_ERRORS - status.errors.length;
        status.errors.push(...errors.slice(0, Math.max(room, 0)));
        status.errorsTruncated ||= errors.length > room;
        await this.report(companyId, status, 'progress', errors.slice(0, MAX_REPORTED_IMPORT_ERRORS));
      }
      status.status = 'done';
    } catch (err) {
      status.status = 'failed';
      status.error = err instanceof DomainError ? err.code : 'ERR_IMPORT_FAILED';
    }
    status.finishedAt = clock.now().toISOString();
    await this.report(companyId, status, 'done', status.errors);
  }

  private async report(companyId: number, status: ContactImportStatus, action: 'progress' | 'done', errors: ImportRowError[]) {
    await this.deps.cache.set(reportKey(companyId, status.importId), JSON.stringify(status), IMPORT_REPORT_TTL_SECONDS);
    await this.deps.realtime.publish(companyId, { entity: 'contactImport', data: { ...status, action, errors } });
  }
}

/**
 * Validates each row (the reason of a refusal is its error code) and keeps the first row of each
 * person (canonical number): a later one is merged into it, filling its e-mail or name.
 */
function validateBatch(batch: readonly ImportRowInput[]) {
  const byPerson = new Map<string, ContactImportRow>();
  const errors: ImportRowError[] = [];
  let repeated = 0;
  for (const r of batch) {
    let row: ContactImportRow;
    try {
      const number = cleanContactNumber(r.number ?? '');
      row = { number, name: cleanContactName(r.name ?? '', number), email: cleanContactEmail(r.email) };
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      errors.push({ row: r.row, reason: err.code });
      continue;
    }
    const key = canonicalPhone(row.number);
    const first = byPerson.get(key);
    if (!first) {
      byPerson.set(key, row);
      continue;
    }
    repeated++;
    byPerson.set(key, { ...first, email: first.email ?? row.email, name: first.name === first.number ? row.name : first.name });
  }
  return { valid: [...byPerson.values()], errors, repeated };
}

/** `POST /contactsImport` with `{ importId }`: the progress or final report of an import of the actor's company. */
export class ShowContactImport {
  constructor(private readonly deps: { cache: Cache }) {}

  async execute(input: { actor: Actor; importId: string }): Promise<ContactImportStatus> {
    const stored = await this.deps.cache.get(reportKey(input.actor.companyId, input.importId));
    if (!stored) throw new NotFoundError('ERR_IMPORT_NOT_FOUND');
    return JSON.parse(stored) as ContactImportStatus;
  }
}
