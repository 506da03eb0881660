import { cleanContactEmail, cleanContactName, cleanContactNumber } from '../contacts/contact-rules.js';
import { MAX_IMPORT_ROWS } from '../contacts/import-contacts.js';
import { canonicalPhone } from '../contacts/phone-numbers.js';
import type { Jobs } from '../jobs/jobs.js';
import type { Actor } from '../shared/actor.js';
import { DomainError, PayloadTooLargeError, ValidationError } from '../shared/errors.js';
import type { BlobStorage, Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { assertListAccess, findList, type ContactListPlan } from './contact-list-access.js';
import { toImportView, type ContactListImport, type ContactListImportView, type ImportProgress, type ImportRowError } from './contact-list-import.js';
import type { ImportAnnouncer } from './import-announcer.js';
import { cleanVariables } from './contact-list.js';
import type { ListRowInput } from './import-rows.js';
import type { ContactListImports, ContactListItems, ContactLists, ImportedItem } from './ports.js';

/** The one-off job that writes an import's rows. */
export const IMPORT_JOB = 'contact-lists.import';
/** Rows written per transaction: a failure loses at most one batch, and other work gets the database in between. */
export const IMPORT_BATCH_ROWS = 500;
/** Batches one run writes before handing over to the next run (other jobs get a turn in between). */
export const IMPORT_BATCHES_PER_RUN = 10;
/** Tries of a run that keeps failing before the import is marked `failed`. */
export const IMPORT_MAX_ATTEMPTS = 5;
const MAX_FILE_NAME = 255;

export interface ImportJobPayload {
  readonly companyId: number;
  readonly importId: number;
  /** Where the rows wait: also known when the import row is gone (its list was deleted meanwhile). */
  readonly blobKey: string;
}

/**
 * `POST /contact-lists/:id/upload`: keeps the rows in blob storage, records the import as
 * `pending` and enqueues its job in one transaction, and answers the import at once. The job
 * writes the rows batch after batch (`RunContactListImport`).
 */
export class StartContactListImport {
  constructor(
    private readonly deps: {
      lists: ContactLists;
      imports: ContactListImports;
      plan: ContactListPlan;
      blobs: BlobStorage;
      jobQueue: Jobs;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
    },
  ) {}

  /** `rows` are read (the file parsed) only once the caller may import into the list. */
  async execute(input: {
    readonly actor: Actor;
    readonly contactListId: number;
    readonly rows: readonly ListRowInput[] | (() => Promise<readonly ListRowInput[]>);
    readonly fileName: string;
  }): Promise<ContactListImportView> {
    const { lists, imports, plan, blobs, jobQueue, tx, clock, ids } = this.deps;
    await assertListAccess(plan, input.actor);
    const { companyId, userId } = input.actor;
    const list = await findList(lists, companyId, input.contactListId);
    const rows = typeof input.rows === 'function' ? await input.rows() : input.rows;
    if (!rows.length) throw new ValidationError('ERR_IMPORT_EMPTY');
    if (rows.length > MAX_IMPORT_ROWS) throw new PayloadTooLargeError('ERR_IMPORT_TOO_MANY_ROWS');
    const blobKey = `private/company-${companyId}/contact-list-imports/${ids.uuid()}.json`;
    await blobs.put(blobKey, Buffer.from(JSON.stringify(rows)), 'application/json');
    try {
      const entry = await tx.run(async () => {
        const now = clock.now();
        const added = await imports.add({
          companyId,
          contactListId: list.id,
          userId,
          status: 'pending',
          fileName: input.fileName.slice(0, MAX_FILE_NAME) || 'upload',
          blobKey,
          total: rows.length,
          processed: 0,
          created: 0,
          duplicates: 0,
          invalid: 0,
          errors: [],
          error: null,
          createdAt: now,
          updatedAt: now,
        });
        const payload: ImportJobPayload = { companyId, importId: added.id, blobKey };
        await jobQueue.enqueue({ name: IMPORT_JOB, at: now, payload, key: `import-${added.id}` });
        return added;
      });
      return toImportView(entry);
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
 * twice), publishes `contactListImport` progress after each, then enqueues the next run or ends
 * the import (`done`, the list's `update` and a `ContactListItem` `reload` of its first page). A
 * run that fails is retried from the last batch written; after the last try the import is `failed`.
 */
export class RunContactListImport {
  constructor(
    private readonly deps: {
      items: ContactListItems;
      imports: ContactListImports;
      /** Tells the list's readers of the progress and the end. */
      announcer: ImportAnnouncer;
      blobs: BlobStorage;
      jobQueue: Jobs;
      tx: Transaction;
      clock: Clock;
    },
  ) {}

  async execute(payload: ImportJobPayload, attempt = 1): Promise<void> {
    try {
      await this.run(payload);
    } catch (err) {
      if (attempt < IMPORT_MAX_ATTEMPTS) throw err;
      const entry = await this.deps.imports.findById(payload.companyId, payload.importId);
      if (entry) await this.end(entry, payload.blobKey, 'failed', err instanceof DomainError ? err.code : 'ERR_IMPORT_FAILED');
    }
  }

  private async run(payload: ImportJobPayload): Promise<void> {
    const { imports, items, blobs, jobQueue, tx, clock } = this.deps;
    const { companyId, importId, blobKey } = payload;
    let entry = await imports.findById(companyId, importId);
    if (!entry) {
      // Its list was deleted meanwhile: nothing left to write, only the stored rows to drop.
      await blobs.delete(blobKey);
      return;
    }
    if (entry.status === 'done' || entry.status === 'failed') return;
    const stored = await blobs.get(blobKey);
    if (!stored) return this.end(entry, blobKey, 'failed', 'ERR_IMPORT_FAILED');
    const rows = JSON.parse(stored.data.toString('utf8')) as ListRowInput[];
    for (let n = 0; n < IMPORT_BATCHES_PER_RUN && entry.processed < rows.length; n++) {
      const batch = rows.slice(entry.processed, entry.processed + IMPORT_BATCH_ROWS);
      const { valid, errors, repeated } = validateBatch(batch);
      const from = entry.processed;
      const listId = entry.contactListId;
      const written = await tx
        .run(async () => {
          const at = clock.now();
          const outcome = valid.length ? await items.importBatch(companyId, listId, valid, at) : { created: 0, merged: 0 };
          const progress: ImportProgress = {
            processed: batch.length,
            created: outcome.created,
            duplicates: outcome.merged + repeated,
            invalid: errors.length,
            errors,
          };
          if (!(await imports.advance(companyId, importId, from, progress, at))) throw new StaleRun();
          return progress;
        })
        .catch((err: unknown) => {
          if (err instanceof StaleRun) return null;
          throw err;
        });
      if (!written) return;
      entry = (await imports.findById(companyId, importId))!;
      await this.deps.announcer.progress(entry, errors);
    }
    if (entry.processed < rows.length) {
      await jobQueue.enqueue({ name: IMPORT_JOB, at: clock.now(), payload, key: `import-${importId}-${entry.processed}` });
      return;
    }
    await this.end(entry, blobKey, 'done', null);
  }

  private async end(entry: ContactListImport, blobKey: string, status: 'done' | 'failed', error: string | null): Promise<void> {
    const { imports, blobs, clock } = this.deps;
    const { companyId } = entry;
    if (!(await imports.finish(companyId, entry.id, status, error, clock.now()))) return;
    await blobs.delete(blobKey);
    const ended = await imports.findById(companyId, entry.id);
    if (ended) await this.deps.announcer.ended(ended);
  }
}

/**
 * Validates each row (a refusal's reason is its error code) and keeps the first row of each
 * canonical number; a later one is merged into it (filling its e-mail, a name that was just the
 * number, and variables it lacks) and counted as a duplicate.
 */
function validateBatch(batch: readonly ListRowInput[]): { valid: ImportedItem[]; errors: ImportRowError[]; repeated: number } {
  const byNumber = new Map<string, ImportedItem>();
  const errors: ImportRowError[] = [];
  let repeated = 0;
  for (const r of batch) {
    let item: ImportedItem;
    try {
      const number = cleanContactNumber(r.number ?? '');
      item = {
        number,
        canonicalNumber: canonicalPhone(number),
        name: cleanContactName(r.name ?? '', number),
        email: cleanContactEmail(r.email) ?? '',
        variables: cleanVariables(r.variables ?? {}),
      };
    } catch (err) {
      if (!(err instanceof ValidationError)) throw err;
      errors.push({ row: r.row, reason: err.code });
      continue;
    }
    const first = byNumber.get(item.canonicalNumber);
    if (!first) {
      byNumber.set(item.canonicalNumber, item);
      continue;
    }
    repeated++;
    byNumber.set(item.canonicalNumber, {
      ...first,
      email: first.email || item.email,
      name: first.name === first.number ? item.name : first.name,
      variables: { ...item.variables, ...first.variables },
    });
  }
  return { valid: [...byNumber.values()], errors, repeated };
}
