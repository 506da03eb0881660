import type { Clock } from '../shared/ports.js';
import { LeaseLostError } from './job.js';
import type { ClaimedJob, ClaimRequest, EnqueuedJob, JobFailure, JobLease, JobRecord, JobStore, NewJob } from './job-store.js';

interface Row {
  id: string;
  name: string;
  key: string | null;
  payload: string;
  everyMs: number | null;
  state: 'pending' | 'failed';
  runAt: number;
  attempts: number;
  claims: number;
  lockedBy: string | null;
  lockedUntil: number | null;
  lastError: string | null;
}

/**
 * Jobs in this process, timed by the Clock port. Every method reads and writes synchronously,
 * so concurrent runners see each claim as atomic. It cannot roll back: `complete` is the last
 * step of a job's transaction, so a refused completion (LeaseLostError) has changed nothing here.
 */
export class InMemoryJobStore implements JobStore {
  private readonly rows = new Map<string, Row>();
  private seq = 0;

  constructor(private readonly clock: Clock) {}

  private now() {
    return this.clock.now().getTime();
  }

  private add(fields: Pick<Row, 'name' | 'key' | 'payload' | 'everyMs' | 'runAt'>): Row {
    const row: Row = { ...fields, id: String(++this.seq), state: 'pending', attempts: 0, claims: 0, lockedBy: null, lockedUntil: null, lastError: null };
    this.rows.set(row.id, row);
    return row;
  }

  async register(recurring: ReadonlyArray<{ readonly name: string; readonly everyMs: number }>) {
    const now = this.now();
    for (const { name, everyMs } of recurring) {
      const row = [...this.rows.values()].find((r) => r.name === name && r.everyMs !== null);
      if (!row) {
        this.add({ name, key: null, payload: 'null', everyMs, runAt: now });
        continue;
      }
      if (row.everyMs !== everyMs) row.runAt = Math.min(row.runAt, now + everyMs);
      row.everyMs = everyMs;
      if (row.state === 'failed') Object.assign(row, { state: 'pending', attempts: 0, runAt: now });
    }
  }

  async enqueue(job: NewJob): Promise<EnqueuedJob> {
    const same = job.key === null ? undefined : [...this.rows.values()].find((r) => r.name === job.name && r.key === job.key && r.state === 'pending');
    if (same) return { id: same.id, created: false };
    const row = this.add({ name: job.name, key: job.key, payload: JSON.stringify(job.payload ?? null), everyMs: null, runAt: job.runAt.getTime() });
    return { id: row.id, created: true };
  }

  async cancel(name: string, key: string) {
    const row = [...this.rows.values()].find((r) => r.name === name && r.key === key && r.state === 'pending');
    return row ? this.rows.delete(row.id) : false;
  }

  async claim(request: ClaimRequest): Promise<ClaimedJob[]> {
    const now = this.now();
    const due = [...this.rows.values()]
      .filter((r) => r.state === 'pending' && r.runAt <= now && (r.lockedUntil === null || r.lockedUntil <= now) && request.leaseMs.has(r.name))
      .sort((a, b) => a.runAt - b.runAt || Number(a.id) - Number(b.id))
      .slice(0, Math.max(0, request.limit));
    return due.map((r) => {
      Object.assign(r, { lockedBy: request.owner, lockedUntil: now + request.leaseMs.get(r.name)!, attempts: r.attempts + 1, claims: r.claims + 1 });
      return {
        id: r.id,
        name: r.name,
        payload: JSON.parse(r.payload) as unknown,
        runAt: new Date(r.runAt),
        attempt: r.attempts,
        lease: { jobId: r.id, owner: request.owner, claim: r.claims },
      };
    });
  }

  /** The row while the lease is still this one; a lapsed lease nobody took over still counts. */
  private held(lease: JobLease): Row | undefined {
    const row = this.rows.get(lease.jobId);
    return row && row.lockedBy === lease.owner && row.claims === lease.claim ? row : undefined;
  }

  async complete(lease: JobLease) {
    const row = this.held(lease);
    if (!row) throw new LeaseLostError(lease.jobId);
    if (row.everyMs === null) {
      this.rows.delete(row.id);
      return;
    }
    Object.assign(row, { runAt: this.now() + row.everyMs, attempts: 0, lockedBy: null, lockedUntil: null, lastError: null });
  }

  async fail(lease: JobLease, failure: JobFailure) {
    const row = this.held(lease);
    if (!row) return false;
    Object.assign(row, { lockedBy: null, lockedUntil: null, lastError: failure.error });
    if (failure.retryInMs === null) row.state = 'failed';
    else row.runAt = this.now() + failure.retryInMs;
    return true;
  }

  async release(leases: readonly JobLease[]) {
    let n = 0;
    for (const lease of leases) {
      const row = this.held(lease);
      if (!row) continue;
      Object.assign(row, { lockedBy: null, lockedUntil: null, attempts: row.attempts - 1 });
      n++;
    }
    return n;
  }

  async list(filter: { readonly name?: string; readonly state?: 'pending' | 'failed' } = {}): Promise<JobRecord[]> {
    return [...this.rows.values()]
      .filter((r) => (filter.name === undefined || r.name === filter.name) && (filter.state === undefined || r.state === filter.state))
      .sort((a, b) => Number(a.id) - Number(b.id))
      .map((r) => ({
        id: r.id,
        name: r.name,
        key: r.key,
        payload: JSON.parse(r.payload) as unknown,
        everyMs: r.everyMs,
        state: r.state,
        runAt: new Date(r.runAt),
        attempts: r.attempts,
        lockedBy: r.lockedBy,
        lockedUntil: r.lockedUntil === null ? null : new Date(r.lockedUntil),
        lastError: r.lastError,
      }));
  }
}
