/** A spreadsheet row the import refused, with its error code (`row`: as a spreadsheet numbers it, the header being 1). */
export interface ImportRowError {
  readonly row: number;
  readonly reason: string;
}

export type ContactListImportState = 'pending' | 'running' | 'done' | 'failed';

/**
 * A spreadsheet import into a list: its rows wait in blob storage (`blobKey`) while background
 * jobs write them, batch after batch; the counts say how far it got.
 */
export interface ContactListImport {
  id: number;
  companyId: number;
  contactListId: number;
  userId: number | null;
  status: ContactListImportState;
  fileName: string;
  blobKey: string | null;
  total: number;
  processed: number;
  created: number;
  /** Rows whose number (in its canonical form) was already in the list, or repeated an earlier row: merged. */
  duplicates: number;
  /** Rows refused; the first 1,000 are listed in `errors`. */
  invalid: number;
  errors: ImportRowError[];
  /** Why a failed import stopped (the rows of earlier batches stay). */
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewContactListImport = Omit<ContactListImport, 'id'>;

/** What one batch adds to an import's counts. */
export interface ImportProgress {
  readonly processed: number;
  readonly created: number;
  readonly duplicates: number;
  readonly invalid: number;
  readonly errors: readonly ImportRowError[];
}

/** The report keeps the first 1,000 row errors; `invalid` counts them all. */
export const MAX_REPORTED_ROW_ERRORS = 1000;

/** An import as the API and its events show it. */
export interface ContactListImportView {
  importId: number;
  contactListId: number;
  fileName: string;
  status: ContactListImportState;
  total: number;
  processed: number;
  created: number;
  duplicates: number;
  invalid: number;
  errors: ImportRowError[];
  error: string | null;
  startedAt: string;
  /** When it ended (`done` or `failed`), else null. */
  finishedAt: string | null;
}

export function toImportView(i: ContactListImport): ContactListImportView {
  const ended = i.status === 'done' || i.status === 'failed';
  return {
    importId: i.id,
    contactListId: i.contactListId,
    fileName: i.fileName,
    status: i.status,
    total: i.total,
    processed: i.processed,
    created: i.created,
    duplicates: i.duplicates,
    invalid: i.invalid,
    errors: i.errors,
    error: i.error,
    startedAt: i.createdAt.toISOString(),
    finishedAt: ended ? i.updatedAt.toISOString() : null,
  };
}
