import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import {
  LeaseLostError,
  type ClaimedJob,
  type ClaimRequest,
  type EnqueuedJob,
  type JobFailure,
  type JobLease,
  type JobRecord,
  type JobState,
  type JobStore,
  type NewJob,
} from '@servicedesk/core';

interface Row {
  id: string | number;
  name: string;
  key: string | null;
  payload: string;
  every_ms: string | number | null;
  state: JobState;
  run_at: Date | string;
  attempts: number;
  claims: number;
  locked_by: string | null;
  locked_until: Date | string | null;
  last_error: string | null;
}

/** The payload travels as text: a jsonb string would otherwise come back indistinguishable from JSON text. */
const columns = (t: string) => `${t}.id, ${t}.name, ${t}.key, cast(${t}.payload as text) as payload, ${t}.every_ms, ${t}.state, ${t}.run_at,
  ${t}.attempts, ${t}.claims, ${t}.locked_by, ${t}.locked_until, ${t}.last_error`;
const ms = (column: string) => `cast(${column} as double precision) * interval '1 millisecond'`;
/** Every time is the database's `clock_timestamp()`: runners with skewed clocks still agree, and inside a job's long transaction it is the time now, not the transaction's start. */
const NOW = 'clock_timestamp()';
const HELD = 'id = ? and locked_by = ? and claims = ?';
const held = (lease: JobLease) => [lease.jobId, lease.owner, lease.claim];

/**
 * The jobs table, on PostgreSQL and PGlite alike. Each call uses the current unit of work's
 * connection (the open transaction's inside `Transaction.run`), so a job's completion commits
 * with the job's own writes and an enqueue with the use case that enqueues.
 */
export class MikroOrmJobStore implements JobStore {
  constructor(private readonly orm: MikroORM) {}

  /** `execute` resolves the transaction of the current context by itself (never the global identity map). */
  private sql<T = Row[]>(query: string, params: unknown[] = []): Promise<T> {
    return (this.orm.em as unknown as SqlEntityManager).execute(query, params) as Promise<T>;
  }

  async register(recurring: ReadonlyArray<{ readonly name: string; readonly everyMs: number }>) {
    for (const { name, everyMs } of recurring) {
      // A changed `every` applies to the next run at the latest; a failed row is re-armed by a (re)start.
      await this.sql(
        `insert into jobs (name, every_ms, run_at) values (?, ?, ${NOW})
         on conflict (name) where every_ms is not null do update set
           run_at = case when jobs.state = 'failed' then ${NOW}
                         when jobs.every_ms <> excluded.every_ms then least(jobs.run_at, ${NOW} + ${ms('excluded.every_ms')})
                         else jobs.run_at end,
           attempts = case when jobs.state = 'failed' then 0 else jobs.attempts end,
           state = 'pending', every_ms = excluded.every_ms, updated_at = ${NOW}`,
        [name, everyMs],
      );
    }
  }

  async enqueue(job: NewJob): Promise<EnqueuedJob> {
    const values = [job.name, job.key, JSON.stringify(job.payload ?? null), job.runAt];
    if (job.key === null) {
      const [row] = await this.sql('insert into jobs (name, key, payload, run_at) values (?, ?, cast(? as jsonb), ?) returning id', values);
      return { id: String(row!.id), created: true };
    }
    // The partial unique index decides between concurrent enqueues; the pending one may also finish meanwhile, so look again.
    for (;;) {
      const [row] = await this.sql(
        `insert into jobs (name, key, payload, run_at) values (?, ?, cast(? as jsonb), ?)
         on conflict (name, key) where state = 'pending' and key is not null do nothing returning id`,
        values,
      );
      if (row) return { id: String(row.id), created: true };
      const [existing] = await this.sql("select id from jobs where name = ? and key = ? and state = 'pending'", [job.name, job.key]);
      if (existing) return { id: String(existing.id), created: false };
    }
  }

  async cancel(name: string, key: string) {
    const rows = await this.sql("delete from jobs where name = ? and key = ? and state = 'pending' returning id", [name, key]);
    return rows.length > 0;
  }

  async claim(request: ClaimRequest): Promise<ClaimedJob[]> {
    if (request.limit <= 0 || request.leaseMs.size === 0) return [];
    const wanted = JSON.stringify([...request.leaseMs].map(([name, leaseMs]) => ({ name, lease_ms: leaseMs })));
    // SKIP LOCKED: rows another runner is claiming right now are passed over instead of waited for.
    const rows = await this.sql(
      `with wanted as (select * from jsonb_to_recordset(cast(? as jsonb)) as w(name text, lease_ms double precision)),
       picked as (
         select j.id, w.lease_ms from jobs j join wanted w on w.name = j.name
         where j.state = 'pending' and j.run_at <= ${NOW} and (j.locked_until is null or j.locked_until <= ${NOW})
         order by j.run_at, j.id limit ?
         for update of j skip locked)
       update jobs j set locked_by = ?, locked_until = ${NOW} + ${ms('picked.lease_ms')},
         attempts = j.attempts + 1, claims = j.claims + 1, updated_at = ${NOW}
       from picked where j.id = picked.id
       returning ${columns('j')}`,
      [wanted, request.limit, request.owner],
    );
    return rows
      .map((row) => ({ r: toRecord(row), claim: Number(row.claims) }))
      .sort((a, b) => a.r.runAt.getTime() - b.r.runAt.getTime() || Number(a.r.id) - Number(b.r.id))
      .map(({ r, claim }) => ({
        id: r.id,
        name: r.name,
        payload: r.payload,
        runAt: r.runAt,
        attempt: r.attempts,
        lease: { jobId: r.id, owner: request.owner, claim },
      }));
  }

  async complete(lease: JobLease) {
    const [row] = await this.sql<Array<{ n: string | number }>>(
      `with rescheduled as (
         update jobs set run_at = ${NOW} + ${ms('every_ms')}, attempts = 0, locked_by = null, locked_until = null,
           last_error = null, updated_at = ${NOW}
         where ${HELD} and every_ms is not null returning id),
       done as (delete from jobs where ${HELD} and every_ms is null returning id)
       select (select count(*) from rescheduled) + (select count(*) from done) as n`,
      [...held(lease), ...held(lease)],
    );
    if (Number(row?.n ?? 0) === 0) throw new LeaseLostError(lease.jobId);
  }

  async fail(lease: JobLease, failure: JobFailure) {
    const next = failure.retryInMs === null ? "state = 'failed'" : `run_at = ${NOW} + ${ms('?')}`;
    const rows = await this.sql(
      `update jobs set ${next}, locked_by = null, locked_until = null, last_error = ?, updated_at = ${NOW} where ${HELD} returning id`,
      [...(failure.retryInMs === null ? [] : [failure.retryInMs]), failure.error, ...held(lease)],
    );
    return rows.length > 0;
  }

  async release(leases: readonly JobLease[]) {
    if (!leases.length) return 0;
    const rows = await this.sql(
      `update jobs set locked_by = null, locked_until = null, attempts = attempts - 1, updated_at = ${NOW}
       from jsonb_to_recordset(cast(? as jsonb)) as l(id bigint, owner text, claim int)
       where jobs.id = l.id and jobs.locked_by = l.owner and jobs.claims = l.claim returning jobs.id`,
      [JSON.stringify(leases.map((l) => ({ id: l.jobId, owner: l.owner, claim: l.claim })))],
    );
    return rows.length;
  }

  async list(filter: { readonly name?: string; readonly state?: JobState } = {}): Promise<JobRecord[]> {
    const rows = await this.sql(
      `select ${columns('jobs')} from jobs where (cast(? as text) is null or name = ?) and (cast(? as text) is null or state = ?) order by id`,
      [filter.name ?? null, filter.name ?? null, filter.state ?? null, filter.state ?? null],
    );
    return rows.map(toRecord);
  }
}

function toRecord(r: Row): JobRecord {
  return {
    id: String(r.id),
    name: r.name,
    key: r.key,
    payload: JSON.parse(r.payload) as unknown,
    everyMs: r.every_ms === null ? null : Number(r.every_ms),
    state: r.state,
    runAt: new Date(r.run_at),
    attempts: Number(r.attempts),
    lockedBy: r.locked_by,
    lockedUntil: r.locked_until === null ? null : new Date(r.locked_until),
    lastError: r.last_error,
  };
}
