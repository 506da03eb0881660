import { expect } from 'chai';
import {
  JobRunner,
  LeaseLostError,
  SystemClock,
  type ClaimedJob,
  type JobDefinition,
  type JobScope,
  type JobStore,
  type Transaction,
} from '../../src/index.js';

export interface JobStoreFixture {
  readonly store: JobStore;
  /** The transaction a job runs in: the store's own writes inside it commit or roll back with it. */
  readonly transaction: Transaction;
  readonly scope: JobScope;
  /** Writes a value through the current transaction (SQL: a row of a scratch table): it exists only if that commits. */
  recordEffect(value: string): Promise<void>;
  effects(): Promise<string[]>;
}

export interface JobStoreContractOptions {
  /**
   * False on a single-connection database (PGlite): while one transaction is open every other
   * query waits, so a runner cannot lose its lease in the middle of a transaction there, and a
   * "killed" runner must take its transaction with it as a dead process would.
   */
  readonly concurrentTransactions: boolean;
}

interface Deferred<T = void> {
  promise: Promise<T>;
  resolve(value: T): void;
}
function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Waits for an event that must come; fails with `what` if it does not within the time. */
async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * A stand-in for a process that dies during a transaction: `kill()` rolls the open transaction
 * back (as the server does when the connection drops) and its caller never hears back.
 */
function killable(tx: Transaction) {
  let kill!: () => void;
  const killed = new Promise<never>((_, reject) => {
    kill = () => reject(KILLED);
  });
  killed.catch(() => undefined);
  const transaction: Transaction = {
    run: (work) =>
      new Promise((resolve, reject) => {
        tx.run(() => Promise.race([work(), killed])).then(resolve, (err) => {
          if (err !== KILLED) reject(err);
        });
      }),
    afterCommit: (callback) => tx.afterCommit(callback),
    runApart: (work) => tx.runApart(work),
  };
  return { transaction, kill: () => kill() };
}
const KILLED = new Error('killed');

const ago = (ms: number) => new Date(Date.now() - ms);
const ids = (jobs: readonly ClaimedJob[]) => jobs.map((j) => j.id);
const leases = (pairs: Array<[string, number]>) => new Map(pairs);

/**
 * One suite for every adapter of the JobStore port: the port's operations, then JobRunners
 * sharing one store as runners in several processes share a database.
 */
export function describeJobStoreContract(name: string, make: () => Promise<JobStoreFixture>, options: JobStoreContractOptions) {
  describe(`JobStore contract: ${name}`, () => {
    let f: JobStoreFixture;
    let runners: JobRunner[];
    const cleanups: Array<() => void> = [];
    beforeEach(async () => {
      f = await make();
      runners = [];
    });
    afterEach(async () => {
      for (const c of cleanups.splice(0)) c();
      await Promise.all(runners.map((r) => r.stop({ timeoutMs: 0 })));
    });

    function runner(owner: string, definitions: JobDefinition<any>[], more: { transaction?: Transaction; store?: JobStore; concurrency?: number } = {}) {
      const r = new JobRunner({
        store: more.store ?? f.store,
        transaction: more.transaction ?? f.transaction,
        scope: f.scope,
        definitions,
        owner,
        clock: new SystemClock(),
        pollMs: 10,
        concurrency: more.concurrency ?? 2,
      });
      runners.push(r);
      return r;
    }
    const enqueue = (jobName: string, at = ago(1000), key: string | null = null, payload: unknown = null) =>
      f.store.enqueue({ name: jobName, runAt: at, payload, key });

    describe('the store', () => {
      it('claims only due jobs of the names asked for, oldest first, however long ago they fell due', async () => {
        const old = await enqueue('a', ago(365 * 24 * 3600_000), null, { n: 1 });
        const recent = await enqueue('a', ago(60_000));
        await enqueue('a', new Date(Date.now() + 3600_000));
        await enqueue('other', ago(60_000));
        const claimed = await f.store.claim({ owner: 'A', limit: 10, leaseMs: leases([['a', 10_000]]) });
        expect(ids(claimed)).to.deep.equal([old.id, recent.id]);
        expect(claimed[0]).to.deep.include({ name: 'a', payload: { n: 1 }, attempt: 1 });
        expect(claimed[0]!.lease).to.deep.equal({ jobId: old.id, owner: 'A', claim: 1 });
        expect(await f.store.claim({ owner: 'B', limit: 10, leaseMs: leases([['a', 10_000]]) })).to.deep.equal([]);
        const rows = await f.store.list({ name: 'a' });
        expect(rows.map((r) => r.lockedBy)).to.deep.equal(['A', 'A', null]);
      });

      it('never hands one job to two concurrent claims', async () => {
        for (let i = 0; i < 30; i++) await enqueue('a');
        const batches = await Promise.all(['A', 'B', 'C', 'D', 'E', 'F'].map((owner) => f.store.claim({ owner, limit: 7, leaseMs: leases([['a', 10_000]]) })));
        const all = batches.flatMap(ids);
        expect(all).to.have.length(30);
        expect(new Set(all).size).to.equal(30);
      });

      it('keeps one pending job per name and key, and a new one once it has run', async () => {
        const first = await Promise.all([1, 2, 3, 4, 5].map((n) => enqueue('a', ago(1000), 'k1', { n })));
        expect(first.filter((e) => e.created)).to.have.length(1);
        expect(new Set(first.map((e) => e.id)).size).to.equal(1);
        expect((await enqueue('b', ago(1000), 'k1')).created).to.equal(true);
        expect((await enqueue('a', ago(1000), 'k2')).created).to.equal(true);
        expect((await enqueue('a')).created).to.equal(true);
        expect((await enqueue('a')).created).to.equal(true);
        expect(await f.store.list({ name: 'a' })).to.have.length(4);
        const [claimed] = await f.store.claim({ owner: 'A', limit: 1, leaseMs: leases([['a', 10_000]]) });
        expect(claimed!.id).to.equal(first[0]!.id);
        expect((await enqueue('a', ago(1000), 'k1')).created).to.equal(false);
        await f.store.complete(claimed!.lease);
        expect((await enqueue('a', ago(1000), 'k1')).created).to.equal(true);
      });

      it('fences completion by the claim: a lapsed lease taken over, even by its own owner, is refused', async () => {
        await enqueue('a');
        const [first] = await f.store.claim({ owner: 'A', limit: 1, leaseMs: leases([['a', 50]]) });
        let second: ClaimedJob | undefined;
        await until(async () => {
          [second] = await f.store.claim({ owner: 'A', limit: 1, leaseMs: leases([['a', 10_000]]) });
          return Boolean(second);
        }, 'the lease to lapse');
        expect(second!.attempt).to.equal(2);
        const refused = await f.store.complete(first!.lease).then(
          () => null,
          (err: unknown) => err,
        );
        expect(refused).to.be.instanceOf(LeaseLostError);
        expect(await f.store.fail(first!.lease, { error: 'late', retryInMs: 0 })).to.equal(false);
        expect(await f.store.release([first!.lease])).to.equal(0);
        await f.store.complete(second!.lease);
        expect(await f.store.list()).to.deep.equal([]);
      });

      it('completes a lapsed lease that nobody took over', async () => {
        await enqueue('a');
        const [claimed] = await f.store.claim({ owner: 'A', limit: 1, leaseMs: leases([['a', 1]]) });
        await until(async () => (await f.store.list())[0]!.lockedUntil! < new Date(Date.now() - 50), 'the lease to lapse');
        await f.store.complete(claimed!.lease);
        expect(await f.store.list()).to.deep.equal([]);
      });

      it('records failures: due again after the backoff, or kept as failed with the error', async () => {
        const { id } = await enqueue('a', ago(1000), null, { n: 1 });
        const [c1] = await f.store.claim({ owner: 'A', limit: 1, leaseMs: leases([['a', 10_000]]) });
        expect(await f.store.fail(c1!.lease, { error: 'Error: first', retryInMs: 3600_000 })).to.equal(true);
        const [row] = await f.store.list();
        expect(row).to.deep.include({ id, state: 'pending', attempts: 1, lockedBy: null, lockedUntil: null, lastError: 'Error: first' });
        expect(row!.runAt.getTime()).to.be.greaterThan(Date.now() + 3500_000);
        expect(await f.store.claim({ owner: 'A', limit: 1, leaseMs: leases([['a', 10_000]]) })).to.deep.equal([]);
        expect(await f.store.fail(c1!.lease, { error: 'again', retryInMs: 0 })).to.equal(false);
        await enqueue('b');
        const [c2] = await f.store.claim({ owner: 'A', limit: 1, leaseMs: leases([['b', 10_000]]) });
        await f.store.fail(c2!.lease, { error: 'Error: hopeless', retryInMs: null });
        expect(await f.store.list({ state: 'failed' })).to.have.length(1);
        expect((await f.store.list({ state: 'failed' }))[0]).to.deep.include({ name: 'b', attempts: 1, lastError: 'Error: hopeless' });
      });

      it('hands back released claims at once without counting a try', async () => {
        await enqueue('a');
        const [c] = await f.store.claim({ owner: 'A', limit: 1, leaseMs: leases([['a', 3600_000]]) });
        expect(await f.store.release([c!.lease])).to.equal(1);
        const [again] = await f.store.claim({ owner: 'B', limit: 1, leaseMs: leases([['a', 3600_000]]) });
        expect(again).to.deep.include({ id: c!.id, attempt: 1 });
      });

      it('cancels a pending job by key; a run in progress can then not complete', async () => {
        await enqueue('a', ago(1000), 'k');
        expect(await f.store.cancel('a', 'k')).to.equal(true);
        expect(await f.store.cancel('a', 'k')).to.equal(false);
        await enqueue('a', ago(1000), 'k');
        const [c] = await f.store.claim({ owner: 'A', limit: 1, leaseMs: leases([['a', 10_000]]) });
        expect(await f.store.cancel('a', 'k')).to.equal(true);
        expect(
          await f.store.complete(c!.lease).then(
            () => null,
            (e: unknown) => e,
          ),
        ).to.be.instanceOf(LeaseLostError);
      });

      it('keeps one row per recurring name: due at once, `every` after each run, changes of `every` applied', async () => {
        await f.store.register([{ name: 'r', everyMs: 3600_000 }]);
        await f.store.register([{ name: 'r', everyMs: 3600_000 }]);
        const [c] = await f.store.claim({ owner: 'A', limit: 5, leaseMs: leases([['r', 10_000]]) });
        await f.store.complete(c!.lease);
        let [row] = await f.store.list({ name: 'r' });
        expect(row).to.deep.include({ everyMs: 3600_000, state: 'pending', attempts: 0, lockedBy: null, payload: null });
        expect(row!.runAt.getTime()).to.be.greaterThan(Date.now() + 3500_000);
        await f.store.register([{ name: 'r', everyMs: 200 }]);
        [row] = await f.store.list({ name: 'r' });
        expect(row!.everyMs).to.equal(200);
        expect(row!.runAt.getTime()).to.be.lessThan(Date.now() + 1200);
        let claimed: ClaimedJob | undefined;
        await until(async () => {
          [claimed] = await f.store.claim({ owner: 'A', limit: 5, leaseMs: leases([['r', 10_000]]) });
          return Boolean(claimed);
        }, 'the new `every` to bring the run forward');
        await f.store.fail(claimed!.lease, { error: 'Error: stuck', retryInMs: null });
        expect((await f.store.list({ name: 'r' }))[0]!.state).to.equal('failed');
        await f.store.register([{ name: 'r', everyMs: 200 }]);
        expect(await f.store.list({ name: 'r' })).to.have.length(1);
        expect((await f.store.list({ name: 'r' }))[0]).to.deep.include({ state: 'pending', attempts: 0 });
      });
    });

    describeRunners(() => ({ f, runner, enqueue, cleanups }), options);
  });
}

interface RunnerWorld {
  readonly f: JobStoreFixture;
  runner(owner: string, definitions: JobDefinition<any>[], more?: { transaction?: Transaction; store?: JobStore; concurrency?: number }): JobRunner;
  enqueue(name: string, at?: Date, key?: string | null, payload?: unknown): Promise<{ id: string }>;
  readonly cleanups: Array<() => void>;
}

/** JobRunners sharing the store, as runners in several processes share one database. */
function describeRunners(world: () => RunnerWorld, options: JobStoreContractOptions) {
  describe('runners sharing the store', () => {
    let w: RunnerWorld;
    beforeEach(() => {
      w = world();
    });
    const empty = async () => (await w.f.store.list()).length === 0;
    /** A job that records `label` through the job's transaction. */
    const effect = (name: string, label: string, more: Partial<JobDefinition> = {}): JobDefinition => ({
      name,
      leaseMs: 300,
      run: async () => {
        await w.f.recordEffect(label);
      },
      ...more,
    });

    it('runs each due job exactly once with two runners polling together', async () => {
      const runs: string[] = [];
      const def = (label: string): JobDefinition => ({
        name: 'many',
        leaseMs: 10_000,
        run: async (ctx) => {
          runs.push(ctx.id);
          await w.f.recordEffect(`${label}:${ctx.id}`);
        },
      });
      for (let i = 0; i < 40; i++) await w.enqueue('many');
      const a = w.runner('A', [def('A')], { concurrency: 3 });
      const b = w.runner('B', [def('B')], { concurrency: 3 });
      await Promise.all([a.start(), b.start()]);
      await until(async () => runs.length >= 40 && (await empty()), 'every job to run', 20_000);
      await Promise.all([a.stop(), b.stop()]);
      expect(runs).to.have.length(40);
      expect(new Set(runs).size).to.equal(40);
      expect(new Set((await w.f.effects()).map((e) => e.split(':')[1])).size).to.equal(40);
      expect(a.metrics().many!.runs + b.metrics().many!.runs).to.equal(40);
    });

    it('picks up jobs that fell due while no runner ran, and leaves future ones', async () => {
      const order: unknown[] = [];
      await w.enqueue('due', ago(60_000), null, 'minute');
      await w.enqueue('due', ago(365 * 24 * 3600_000), null, 'year');
      const future = await w.enqueue('due', new Date(Date.now() + 3600_000), null, 'hour');
      await w
        .runner(
          'A',
          [
            {
              name: 'due',
              run: async (ctx) => {
                order.push(ctx.payload);
              },
            },
          ],
          { concurrency: 1 },
        )
        .start();
      // Done means run and completed: the handler returns before its completion commits.
      await until(async () => order.length === 2 && (await w.f.store.list()).length === 1, 'the past-due jobs');
      expect(order).to.deep.equal(['year', 'minute']);
      expect((await w.f.store.list()).map((r) => r.id)).to.deep.equal([future.id]);
    });

    it('redoes the job of a runner killed mid-job once its lease lapses', async () => {
      const started = deferred();
      const killed = killable(w.f.transaction);
      w.cleanups.push(killed.kill);
      const dying: JobDefinition = {
        name: 'work',
        leaseMs: 300,
        run: async () => {
          await w.f.recordEffect('A');
          started.resolve();
          await new Promise(() => undefined);
        },
      };
      const attempts: number[] = [];
      await w.enqueue('work');
      await w.runner('A', [dying], { transaction: killed.transaction, concurrency: 1 }).start();
      await started.promise;
      // A dead process's transaction dies with it; on one connection nothing else could run until it did.
      if (!options.concurrentTransactions) killed.kill();
      await w
        .runner('B', [
          effect('work', 'B', {
            run: async (ctx) => {
              attempts.push(ctx.attempt);
              await w.f.recordEffect('B');
            },
          }),
        ])
        .start();
      await until(async () => attempts.length === 1 && (await empty()), 'the other runner to redo the job');
      expect(attempts).to.deep.equal([2]);
      expect(await w.f.effects()).to.deep.equal(['B']);
    });

    it('rolls back the effect of a run whose lease was taken over before it could complete', async () => {
      const entered = deferred();
      const gate = deferred();
      const late: Transaction = {
        run: async (work) => {
          entered.resolve();
          await gate.promise;
          return w.f.transaction.run(work);
        },
        afterCommit: (callback) => w.f.transaction.afterCommit(callback),
        runApart: (work) => w.f.transaction.runApart(work),
      };
      let aRan = false;
      await w.enqueue('work');
      const a = w.runner(
        'A',
        [
          effect('work', 'A', {
            run: async () => {
              aRan = true;
              await w.f.recordEffect('A');
            },
          }),
        ],
        { transaction: late, concurrency: 1 },
      );
      await a.start();
      await entered.promise;
      await w.runner('B', [effect('work', 'B')]).start();
      await until(async () => (await w.f.effects()).length === 1 && (await empty()), 'the other runner to run the job');
      gate.resolve();
      await until(() => a.metrics().work!.failures === 1, 'the first runner to finish');
      expect(aRan).to.equal(true);
      expect(a.metrics().work!.lastError).to.contain('ERR_JOB_LEASE_LOST');
      expect(await w.f.effects()).to.deep.equal(['B']);
    });

    if (options.concurrentTransactions) {
      it('rolls back the effect a run wrote before its lease was taken over', async () => {
        const wrote = deferred();
        const gate = deferred();
        await w.enqueue('work');
        const a = w.runner(
          'A',
          [
            effect('work', 'A', {
              run: async () => {
                await w.f.recordEffect('A');
                wrote.resolve();
                await gate.promise;
              },
            }),
          ],
          { concurrency: 1 },
        );
        await a.start();
        await wrote.promise;
        await w.runner('B', [effect('work', 'B')]).start();
        await until(async () => (await w.f.effects()).length === 1 && (await empty()), 'the other runner to run the job');
        gate.resolve();
        await until(() => a.metrics().work!.failures === 1, 'the first runner to finish');
        expect(await w.f.effects()).to.deep.equal(['B']);
      });
    }

    it('retries a failing job with backoff, then keeps it failed with its last error', async () => {
      const starts: number[] = [];
      const failing: JobDefinition = {
        name: 'flaky',
        maxAttempts: 3,
        backoff: () => 150,
        leaseMs: 10_000,
        run: async (ctx) => {
          starts.push(Date.now());
          await w.f.recordEffect('half-done');
          throw new Error(`boom ${ctx.attempt}`);
        },
      };
      let marker = false;
      const a = w.runner('A', [
        failing,
        {
          name: 'marker',
          run: async () => {
            marker = true;
          },
        },
      ]);
      await w.enqueue('flaky');
      await a.start();
      await until(async () => (await w.f.store.list({ state: 'failed' })).length === 1, 'the job to be kept as failed');
      const [failed] = await w.f.store.list({ state: 'failed' });
      expect(failed).to.deep.include({ name: 'flaky', attempts: 3, lastError: 'Error: boom 3' });
      expect(starts).to.have.length(3);
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).to.be.at.least(140);
      // A job enqueued after it was failed runs; the failed one must not have run again meanwhile.
      await w.enqueue('marker');
      a.nudge();
      await until(() => marker, 'a later job');
      expect(starts).to.have.length(3);
      expect(await w.f.effects()).to.deep.equal([]);
      expect(a.metrics().flaky).to.deep.include({ runs: 3, failures: 3, lastError: 'Error: boom 3', running: 0 });
    });

    it('runs a recurring job from one row, `every` after each run, whichever runner takes it', async () => {
      const starts: number[] = [];
      const tick = (): JobDefinition => ({
        name: 'tick',
        every: 250,
        run: async () => {
          starts.push(Date.now());
        },
      });
      const a = w.runner('A', [tick()]);
      const b = w.runner('B', [tick()]);
      await Promise.all([a.start(), b.start()]);
      await until(() => starts.length >= 3, 'three runs');
      await Promise.all([a.stop(), b.stop()]);
      for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).to.be.at.least(240);
      const rows = await w.f.store.list({ name: 'tick' });
      expect(rows).to.have.length(1);
      expect(rows[0]).to.deep.include({ everyMs: 250, state: 'pending', attempts: 0, lockedBy: null });
    });

    it('on stop hands back claims it did not start, at once, and waits for the jobs it runs', async () => {
      const claimed = deferred();
      const gate = deferred();
      const slow = new Proxy(w.f.store, {
        get(target, prop) {
          if (prop === 'claim') {
            return async (...args: Parameters<JobStore['claim']>) => {
              const jobs = await target.claim(...args);
              if (jobs.length) {
                claimed.resolve();
                await gate.promise;
              }
              return jobs;
            };
          }
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const ranBy: string[] = [];
      const def = (owner: string): JobDefinition => ({
        name: 'held',
        leaseMs: 60_000,
        run: async () => {
          ranBy.push(owner);
        },
      });
      await w.enqueue('held');
      await w.enqueue('held');
      const a = w.runner('A', [def('A')], { store: slow });
      await a.start();
      await claimed.promise;
      const stopping = a.stop();
      gate.resolve();
      expect(await stopping).to.deep.equal({ released: 2, unfinished: 0 });
      // Far sooner than the 60 s lease would lapse: only a hand-back explains it.
      await w.runner('B', [def('B')]).start();
      await until(() => ranBy.length === 2, 'the other runner to run the handed-back jobs');
      expect(ranBy).to.deep.equal(['B', 'B']);

      const release = deferred();
      const running = deferred();
      await w.enqueue('slow');
      const c = w.runner('C', [
        {
          name: 'slow',
          run: async () => {
            running.resolve();
            await release.promise;
          },
        },
      ]);
      await c.start();
      await running.promise;
      const stopped = c.stop({ timeoutMs: 10_000 });
      setImmediate(() => release.resolve());
      expect(await stopped).to.deep.equal({ released: 0, unfinished: 0 });
      expect(await w.f.store.list()).to.deep.equal([]);
    });
  });
}
