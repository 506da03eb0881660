/** `pending` covers waiting, claimed and retrying; a job that used up its tries stays `failed`. */
export type JobState = 'pending' | 'failed';

export interface NewJob {
  readonly name: string;
  readonly runAt: Date;
  /** JSON-serializable. */
  readonly payload: unknown;
  /** At most one pending job per name and key: a second enqueue keeps the first. */
  readonly key: string | null;
}

export interface EnqueuedJob {
  readonly id: string;
  readonly created: boolean;
}

/**
 * Proof that a runner holds a job: the owner and which claim of the row it is, so that a runner
 * whose lease lapsed cannot complete a claim that is now someone else's, even its own later one.
 */
export interface JobLease {
  readonly jobId: string;
  readonly owner: string;
  readonly claim: number;
}

export interface ClaimedJob {
  readonly id: string;
  readonly name: string;
  readonly payload: unknown;
  readonly runAt: Date;
  /** Tries so far, this one included. */
  readonly attempt: number;
  readonly lease: JobLease;
}

export interface ClaimRequest {
  readonly owner: string;
  readonly limit: number;
  /** The names this runner can run, each with its lease length in ms; other names are left alone. */
  readonly leaseMs: ReadonlyMap<string, number>;
}

export interface JobFailure {
  readonly error: string;
  /** Due again after this many ms; null keeps the job as `failed`. */
  readonly retryInMs: number | null;
}

export interface JobRecord {
  readonly id: string;
  readonly name: string;
  readonly key: string | null;
  readonly payload: unknown;
  readonly everyMs: number | null;
  readonly state: JobState;
  readonly runAt: Date;
  readonly attempts: number;
  readonly lockedBy: string | null;
  readonly lockedUntil: Date | null;
  readonly lastError: string | null;
}

/**
 * Where jobs wait, shared by every runner. Time is the store's own clock (the database's, for a
 * database), so runners with skewed clocks agree on what is due and when a lease lapses. Calls
 * made inside `Transaction.run` take part in the transaction: `complete` commits with the job's
 * writes, `enqueue` with the writes of the use case that enqueues.
 */
export interface JobStore {
  /** One row per recurring name: created due now, else its `every` updated (a failed one re-armed). */
  register(recurring: ReadonlyArray<{ readonly name: string; readonly everyMs: number }>): Promise<void>;
  enqueue(job: NewJob): Promise<EnqueuedJob>;
  /** Removes the pending job of that name and key; a run in progress then cannot complete. */
  cancel(name: string, key: string): Promise<boolean>;
  /**
   * Leases up to `limit` due jobs (`runAt` at or before now — however long ago — and not leased,
   * or leased past its end) without waiting for rows another runner is claiming.
   */
  claim(request: ClaimRequest): Promise<ClaimedJob[]>;
  /** Deletes a one-off job, or makes a recurring one due `every` from now. Throws LeaseLostError. */
  complete(lease: JobLease): Promise<void>;
  /** Records a failed try; false (and nothing written) when the lease is no longer this one. */
  fail(lease: JobLease, failure: JobFailure): Promise<boolean>;
  /** Hands back claims that were never started, at once and without counting a try. */
  release(leases: readonly JobLease[]): Promise<number>;
  /** Jobs by id, for health reports and tests. */
  list(filter?: { readonly name?: string; readonly state?: JobState }): Promise<JobRecord[]>;
}
