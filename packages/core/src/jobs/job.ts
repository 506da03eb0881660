import { ConflictError } from '../shared/errors.js';

/** What a handler learns about the run it was given. */
export interface JobContext<P = unknown> {
  readonly id: string;
  readonly name: string;
  /** The payload given to `enqueue` (JSON: what went in as a Date comes out as a string); null for recurring jobs. */
  readonly payload: P;
  /** 1 on the first try; counts claims, so a run whose runner died counts too. */
  readonly attempt: number;
  /** When the job was due (it may run much later if every runner was down). */
  readonly runAt: Date;
}

/** Milliseconds to wait before the next try, after try number `attempt` failed. */
export type Backoff = (attempt: number) => number;

/**
 * Background work as data. With `every` it is recurring: one row per name, due again `every` ms
 * after each success. Without it, it is the handler of the one-off jobs enqueued under its name.
 */
export interface JobDefinition<P = unknown> {
  readonly name: string;
  readonly every?: number;
  /**
   * How long a runner holds a job it claimed (default 30 s). Past it another runner may take the
   * job, and the first one's completion is refused: make it longer than the job's longest run.
   */
  readonly leaseMs?: number;
  /** Tries before the job is kept as `failed`. Default 5 for one-off jobs, unlimited for recurring ones. */
  readonly maxAttempts?: number;
  /** Default: 1 s doubling up to 5 min; for a recurring job never longer than `every`. */
  readonly backoff?: Backoff;
  /**
   * Default true: the handler's database writes and the job's completion commit in one transaction
   * (the effect happens once). False for work whose effect is outside the database or that opens
   * its own transactions (publishing the outbox): it then runs without the job's transaction, and
   * a run that loses its lease may already have had its effect (at least once).
   */
  readonly atomic?: boolean;
  run(ctx: JobContext<P>): Promise<void>;
}

/** pino-compatible: `log.warn({ err, job }, 'message')`. */
export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export const SILENT_JOB_LOGGER: JobLogger = { info() {}, warn() {}, error() {} };

/** A unit of work around each job and each store call (the backend passes MikroORM's RequestContext). */
export type JobScope = <T>(work: () => Promise<T>) => Promise<T>;

/** Per definition, since this runner started. */
export interface JobMetrics {
  /** Runs that ended, failed ones included. */
  readonly runs: number;
  readonly failures: number;
  readonly running: number;
  readonly lastDurationMs: number | null;
  readonly lastError: string | null;
  readonly lastRunAt: Date | null;
}

/**
 * The job was taken over by another runner (its lease lapsed, or it was cancelled) before this
 * run completed: the completion is refused, so the run's transaction — its effects — rolls back.
 */
export class LeaseLostError extends ConflictError {
  constructor(readonly jobId: string) {
    super('ERR_JOB_LEASE_LOST', { jobId });
  }
}

export const DEFAULT_LEASE_MS = 30_000;
export const DEFAULT_MAX_ATTEMPTS = 5;

/** `baseMs`, then doubling each try, never more than `maxMs`. */
export function exponentialBackoff(baseMs = 1000, maxMs = 300_000): Backoff {
  return (attempt) => Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

const DEFAULT_BACKOFF = exponentialBackoff();

/** The backoff a definition gets when it names none (a recurring job retries no later than its next turn). */
export function backoffOf(def: JobDefinition<any>): Backoff {
  if (def.backoff) return def.backoff;
  const every = def.every;
  return every ? (attempt) => Math.min(every, DEFAULT_BACKOFF(attempt)) : DEFAULT_BACKOFF;
}

export function maxAttemptsOf(def: JobDefinition<any>): number {
  return def.maxAttempts ?? (def.every ? Number.POSITIVE_INFINITY : DEFAULT_MAX_ATTEMPTS);
}

/** Programming errors in the list of definitions are found at start, not at the first run. */
export function checkDefinitions(defs: readonly JobDefinition<any>[]): Map<string, JobDefinition<any>> {
  const byName = new Map<string, JobDefinition<any>>();
  for (const def of defs) {
    if (!def.name || def.name.length > 200) throw new TypeError(`job name must be 1-200 characters: "${def.name}"`);
    if (byName.has(def.name)) throw new TypeError(`job "${def.name}" is defined twice`);
    for (const [field, value] of [
      ['every', def.every],
      ['leaseMs', def.leaseMs],
      ['maxAttempts', def.maxAttempts],
    ] as const) {
      const ok = value === undefined || (value > 0 && (field === 'maxAttempts' || Number.isFinite(value)));
      if (!ok) throw new TypeError(`job "${def.name}": ${field} must be a positive number`);
    }
    byName.set(def.name, def);
  }
  return byName;
}
