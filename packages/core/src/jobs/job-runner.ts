import type { Clock, Transaction } from '../shared/ports.js';
import {
  backoffOf,
  checkDefinitions,
  DEFAULT_LEASE_MS,
  LeaseLostError,
  maxAttemptsOf,
  SILENT_JOB_LOGGER,
  type JobDefinition,
  type JobLogger,
  type JobMetrics,
  type JobScope,
} from './job.js';
import { errorText, JobMetricsBook } from './job-metrics.js';
import type { ClaimedJob, JobStore } from './job-store.js';

export interface JobRunnerOptions {
  readonly store: JobStore;
  readonly transaction: Transaction;
  readonly definitions: readonly JobDefinition<any>[];
  /** This runner's name in the leases (`locked_by`): unique per process, to tell whose lease lapsed. */
  readonly owner: string;
  readonly clock: Clock;
  readonly scope?: JobScope;
  readonly logger?: JobLogger;
  /** How often to look for due jobs when not nudged (default 1 s). */
  readonly pollMs?: number;
  /** Jobs run side by side (default 4); a runner claims only what it has room to start. */
  readonly concurrency?: number;
}

export interface StopResult {
  readonly released: number;
  readonly unfinished: number;
}

/**
 * Runs the jobs of a JobStore: claims due ones, runs each in a unit of work and in a transaction
 * with its completion, retries failures with backoff and keeps the hopeless ones as failed. Any
 * number of runners may share a store; a lease makes each run one runner's.
 */
export class JobRunner {
  private readonly definitions: Map<string, JobDefinition<any>>;
  private readonly leaseMs = new Map<string, number>();
  private readonly book: JobMetricsBook;
  private readonly running = new Set<Promise<void>>();
  private readonly scope: JobScope;
  private readonly log: JobLogger;
  private state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticking: Promise<void> | null = null;
  private again = false;
  private saturated = false;
  private released = 0;

  constructor(private readonly options: JobRunnerOptions) {
    this.definitions = checkDefinitions(options.definitions);
    for (const def of this.definitions.values()) this.leaseMs.set(def.name, def.leaseMs ?? DEFAULT_LEASE_MS);
    this.book = new JobMetricsBook(this.definitions.keys());
    this.scope = options.scope ?? ((work) => work());
    this.log = options.logger ?? SILENT_JOB_LOGGER;
  }

  /**
   * Writes the row of each recurring definition (one per name; idempotent): `start` does it, and a
   * caller whose store was emptied (a test resetting its database) does it again.
   */
  async registerRecurring(): Promise<void> {
    const recurring = [...this.definitions.values()].filter((d) => d.every).map((d) => ({ name: d.name, everyMs: Math.round(d.every!) }));
    await this.scope(() => this.options.store.register(recurring));
  }

  /** Registers the recurring definitions (one row per name) and starts polling. */
  async start(): Promise<void> {
    if (this.state !== 'new') throw new Error('a JobRunner starts once');
    await this.registerRecurring();
    this.state = 'running';
    this.schedule(0);
  }

  /** Looks for due jobs now instead of at the next poll (something was just enqueued). */
  nudge(): void {
    if (this.state !== 'running') return;
    if (this.ticking) this.again = true;
    else this.schedule(0);
  }

  metrics(): Record<string, JobMetrics> {
    return this.book.snapshot();
  }

  /** Stops claiming, hands back claims not started, and waits for running jobs up to `timeoutMs`. */
  async stop(options: { readonly timeoutMs?: number } = {}): Promise<StopResult> {
    if (this.state === 'new' || this.state === 'stopped') {
      this.state = 'stopped';
      return { released: this.released, unfinished: 0 };
    }
    this.state = 'stopping';
    clearTimeout(this.timer);
    await this.ticking;
    let timeout: ReturnType<typeof setTimeout> | undefined;
    const expired = new Promise<void>((resolve) => {
      timeout = setTimeout(resolve, options.timeoutMs ?? 10_000);
    });
    await Promise.race([Promise.all([...this.running]), expired]);
    clearTimeout(timeout);
    this.state = 'stopped';
    if (this.running.size)
      this.log.warn({ owner: this.options.owner, unfinished: this.running.size }, 'job runner stopped with jobs still running; their leases will lapse');
    return { released: this.released, unfinished: this.running.size };
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      void this.tick();
    }, ms);
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    if (this.ticking || this.state !== 'running') return;
    this.again = false;
    this.ticking = this.claimAndLaunch();
    await this.ticking;
    this.ticking = null;
    if (this.state === 'running') this.schedule(this.again ? 0 : (this.options.pollMs ?? 1000));
  }

  private async claimAndLaunch(): Promise<void> {
    const free = (this.options.concurrency ?? 4) - this.running.size;
    if (free <= 0) return;
    try {
      const jobs = await this.scope(() => this.options.store.claim({ owner: this.options.owner, limit: free, leaseMs: this.leaseMs }));
      if (this.state !== 'running') return await this.handBack(jobs);
      // A full batch means more may be due: look again as soon as a slot frees up.
      this.saturated = jobs.length === free;
      for (const job of jobs) this.launch(job);
    } catch (err) {
      this.log.warn({ err, owner: this.options.owner }, 'could not claim jobs; will retry');
    }
  }

  private async handBack(jobs: readonly ClaimedJob[]) {
    if (!jobs.length) return;
    try {
      this.released += await this.scope(() => this.options.store.release(jobs.map((j) => j.lease)));
    } catch (err) {
      this.log.warn({ err, jobs: jobs.map((j) => j.id) }, 'could not hand back claimed jobs; their leases will lapse');
    }
  }

  private launch(job: ClaimedJob) {
    const run: Promise<void> = this.execute(job).finally(() => {
      this.running.delete(run);
      if (this.saturated) this.nudge();
    });
    this.running.add(run);
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const def = this.definitions.get(job.name)!;
    const { store, transaction, clock } = this.options;
    const started = clock.now();
    this.book.started(job.name);
    let failure: unknown;
    try {
      // Tried more often than allowed without ever failing: its runners died during it (each claim counts).
      if (job.attempt > maxAttemptsOf(def)) throw new Error(`abandoned by ${job.attempt - 1} runners before finishing`);
      const ctx = { id: job.id, name: job.name, payload: job.payload, attempt: job.attempt, runAt: job.runAt };
      const work = async () => {
        await def.run(ctx);
        await store.complete(job.lease);
      };
      await this.scope(() => (def.atomic === false ? work() : transaction.run(work)));
    } catch (err) {
      failure = err;
    }
    this.book.ended(job.name, clock.now(), clock.now().getTime() - started.getTime(), failure === undefined ? undefined : errorText(failure));
    if (failure !== undefined) await this.recordFailure(def, job, failure);
  }

  private async recordFailure(def: JobDefinition<any>, job: ClaimedJob, err: unknown) {
    const about = { job: job.name, id: job.id, attempt: job.attempt, owner: this.options.owner, err };
    if (err instanceof LeaseLostError) {
      this.log.warn(about, 'job finished after losing its lease: another runner has it, this run did not commit');
      return;
    }
    const retryInMs = job.attempt < maxAttemptsOf(def) ? Math.max(0, backoffOf(def)(job.attempt)) : null;
    try {
      const kept = await this.scope(() => this.options.store.fail(job.lease, { error: errorText(err), retryInMs }));
      if (!kept) this.log.warn(about, 'job failed after losing its lease: another runner has it');
      else if (retryInMs === null) this.log.error(about, 'job failed for good; kept as failed with its error');
      else this.log.warn({ ...about, retryInMs }, 'job failed; will retry');
    } catch (storeErr) {
      this.log.error({ ...about, storeErr }, 'could not record a job failure; it is retried once its lease lapses');
    }
  }
}
