import { expect } from 'chai';
import { JobRunner, Jobs, type JobDefinition, type JobLogger, type JobRunnerOptions, type JobStore, type Transaction } from '../../src/index.js';
import { FixedClock, InMemoryJobStore, SerialTransaction } from '../../src/testing.js';

async function until(check: () => boolean | Promise<boolean>, what: string) {
  const end = Date.now() + 5000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

class RecordingLogger implements JobLogger {
  readonly lines: Array<{ level: string; msg: string; obj: Record<string, unknown> }> = [];
  info(obj: object, msg: string) {
    this.lines.push({ level: 'info', msg, obj: obj as Record<string, unknown> });
  }
  warn(obj: object, msg: string) {
    this.lines.push({ level: 'warn', msg, obj: obj as Record<string, unknown> });
  }
  error(obj: object, msg: string) {
    this.lines.push({ level: 'error', msg, obj: obj as Record<string, unknown> });
  }
}

/** Counts the transactions it opens. */
class CountingTransaction implements Transaction {
  opened = 0;
  private readonly inner = new SerialTransaction();
  run<T>(work: () => Promise<T>) {
    this.opened++;
    return this.inner.run(work);
  }
  afterCommit(callback: () => void) {
    this.inner.afterCommit(callback);
  }
  runApart<T>(work: () => Promise<T>) {
    return this.inner.runApart(work);
  }
}

describe('JobRunner', () => {
  let clock: FixedClock;
  let store: InMemoryJobStore;
  let tx: CountingTransaction;
  let log: RecordingLogger;
  let runners: JobRunner[];
  beforeEach(() => {
    clock = new FixedClock();
    store = new InMemoryJobStore(clock);
    tx = new CountingTransaction();
    log = new RecordingLogger();
    runners = [];
  });
  afterEach(async () => {
    await Promise.all(runners.map((r) => r.stop({ timeoutMs: 0 })));
  });

  function runner(definitions: JobDefinition<any>[], more: Partial<JobRunnerOptions> = {}) {
    const r = new JobRunner({ store, transaction: tx, definitions, owner: 'runner-1', clock, logger: log, pollMs: 5, ...more });
    runners.push(r);
    return r;
  }
  const enqueue = (name: string, payload: unknown = null, definitions: JobDefinition<any>[] = [{ name, run: async () => undefined }]) =>
    new Jobs({ store, definitions }).enqueue({ name, at: clock.now(), payload });

  it('runs a due job in its unit of work and transaction, completes it and keeps metrics', async () => {
    const scopes: string[] = [];
    const seen: unknown[] = [];
    const def: JobDefinition<{ n: number }> = {
      name: 'a',
      run: async (ctx) => {
        seen.push(ctx);
        clock.advance(25);
      },
    };
    const { id } = await enqueue('a', { n: 1 });
    const r = runner([def], {
      scope: async (work) => {
        scopes.push('open');
        try {
          return await work();
        } finally {
          scopes.push('close');
        }
      },
    });
    await r.start();
    await until(() => r.metrics().a!.runs === 1, 'the run');
    expect(seen).to.deep.equal([{ id, name: 'a', payload: { n: 1 }, attempt: 1, runAt: new Date('2026-01-01T12:00:00.000Z') }]);
    expect(await store.list()).to.deep.equal([]);
    expect(tx.opened).to.equal(1);
    expect(scopes.length).to.be.at.least(6); // register, a claim, the job, each open and closed
    expect(r.metrics().a).to.deep.equal({
      runs: 1,
      failures: 0,
      running: 0,
      lastDurationMs: 25,
      lastError: null,
      lastRunAt: new Date('2026-01-01T12:00:00.025Z'),
    });
  });

  it('retries after the backoff by the store clock, then keeps the job failed and says so', async () => {
    let tries = 0;
    const flaky: JobDefinition = {
      name: 'flaky',
      maxAttempts: 2,
      backoff: (n) => n * 60_000,
      run: async () => {
        tries++;
        throw new Error(`try ${tries}`);
      },
    };
    let marker = 0;
    const r = runner([
      flaky,
      {
        name: 'marker',
        run: async () => {
          marker++;
        },
      },
    ]);
    await enqueue('flaky', null, [flaky]);
    await r.start();
    await until(() => tries === 1 && log.lines.length === 1, 'the first failure');
    expect(log.lines[0]).to.deep.include({ level: 'warn', msg: 'job failed; will retry' });
    expect(log.lines[0]!.obj).to.deep.include({ job: 'flaky', attempt: 1, retryInMs: 60_000 });
    expect((await store.list())[0]!.runAt).to.deep.equal(new Date(clock.now().getTime() + 60_000));
    // Not due yet: a job enqueued later runs, the failed one does not.
    await enqueue('marker');
    r.nudge();
    await until(() => marker === 1, 'a later job');
    expect(tries).to.equal(1);
    clock.advance(60_000);
    r.nudge();
    await until(() => log.lines.length === 2, 'the second failure');
    expect(log.lines[1]).to.deep.include({ level: 'error', msg: 'job failed for good; kept as failed with its error' });
    expect(await store.list({ state: 'failed' })).to.have.length(1);
    expect((await store.list({ state: 'failed' }))[0]).to.deep.include({ attempts: 2, lastError: 'Error: try 2' });
    expect(r.metrics().flaky).to.deep.include({ runs: 2, failures: 2, lastError: 'Error: try 2' });
  });

  it('fails without running a job its runners kept dying in, once it used up its tries', async () => {
    const def: JobDefinition = {
      name: 'poison',
      maxAttempts: 2,
      leaseMs: 1000,
      run: async () => {
        throw new Error('must not run');
      },
    };
    await enqueue('poison', null, [def]);
    for (let i = 0; i < 2; i++) {
      await store.claim({ owner: `dead-${i}`, limit: 1, leaseMs: new Map([['poison', 1000]]) });
      clock.advance(1000);
    }
    await runner([def]).start();
    await until(async () => (await store.list({ state: 'failed' })).length === 1, 'the job to be failed');
    expect((await store.list())[0]!.lastError).to.equal('Error: abandoned by 2 runners before finishing');
  });

  it("does not record a failure when the completion is refused: the job is someone else's", async () => {
    const def: JobDefinition = {
      name: 'cancelled',
      run: async () => {
        await store.cancel('cancelled', 'k');
      },
    };
    await new Jobs({ store, definitions: [def] }).enqueue({ name: 'cancelled', at: clock.now(), key: 'k' });
    const r = runner([def]);
    await r.start();
    await until(() => r.metrics().cancelled!.failures === 1, 'the refused completion');
    expect(log.lines.map((l) => l.msg)).to.deep.equal(['job finished after losing its lease: another runner has it, this run did not commit']);
  });

  it('runs a non-atomic job without the job transaction', async () => {
    let ran = false;
    await runner([
      {
        name: 'publish',
        atomic: false,
        run: async () => {
          ran = true;
        },
      },
    ]).start();
    await enqueue('publish');
    await until(async () => ran && (await store.list()).length === 0, 'the run');
    expect(tx.opened).to.equal(0);
  });

  it('claims only what it has room to start, and a nudge claims at once', async () => {
    const gate: Array<() => void> = [];
    const def: JobDefinition = {
      name: 'slow',
      run: () =>
        new Promise<void>((resolve) => {
          gate.push(resolve);
        }),
    };
    let claims = 0;
    const counted: JobStore = new Proxy(store, {
      get: (target, prop) =>
        prop === 'claim'
          ? (...args: Parameters<JobStore['claim']>) => {
              claims++;
              return target.claim(...args);
            }
          : (Reflect.get(target, prop) as (...a: unknown[]) => unknown).bind(target),
    });
    const r = runner([def], {
      store: counted,
      concurrency: 2,
      pollMs: 3600_000,
      transaction: { run: (work) => work(), afterCommit: (callback) => callback(), runApart: (work) => work() },
    });
    await r.start();
    await until(() => claims === 1, 'the first poll');
    for (let i = 0; i < 5; i++) await enqueue('slow', i, [def]);
    // The next poll is an hour away: only the nudge can start them.
    r.nudge();
    await until(() => gate.length === 2, 'two running jobs');
    expect((await store.list()).filter((j) => j.lockedBy).length).to.equal(2);
    gate.shift()!();
    await until(() => gate.length === 2 && r.metrics().slow!.runs === 1, 'the freed slot to be used');
    expect((await store.list()).filter((j) => j.lockedBy).length).to.equal(2);
    const stopping = r.stop({ timeoutMs: 20 });
    expect(await stopping).to.deep.equal({ released: 0, unfinished: 2 });
    expect(log.lines.at(-1)).to.deep.include({ level: 'warn', msg: 'job runner stopped with jobs still running; their leases will lapse' });
  });

  it('logs a failed claim and keeps polling', async () => {
    let failures = 1;
    const flaky: JobStore = new Proxy(store, {
      get: (target, prop) =>
        prop === 'claim' && failures-- > 0
          ? async () => {
              throw new Error('database unreachable');
            }
          : (Reflect.get(target, prop) as (...a: unknown[]) => unknown).bind(target),
    });
    let ran = false;
    await enqueue('a');
    await runner(
      [
        {
          name: 'a',
          run: async () => {
            ran = true;
          },
        },
      ],
      { store: flaky },
    ).start();
    await until(() => ran, 'the run after the failed claim');
    expect(log.lines[0]).to.deep.include({ level: 'warn', msg: 'could not claim jobs; will retry' });
  });

  it('registers recurring definitions at start, once, and stops cleanly before or after', async () => {
    const r = runner([
      { name: 'tick', every: 60_000, run: async () => undefined },
      { name: 'once', run: async () => undefined },
    ]);
    expect(await r.stop()).to.deep.equal({ released: 0, unfinished: 0 });
    const s = runner([
      { name: 'tick', every: 60_000, run: async () => undefined },
      { name: 'once', run: async () => undefined },
    ]);
    await s.start();
    await until(() => s.metrics().tick!.runs === 1, 'the first run, at once');
    expect((await store.list()).map((j) => [j.name, j.everyMs, j.runAt.getTime() - clock.now().getTime()])).to.deep.equal([['tick', 60_000, 60_000]]);
    await s.start().then(
      () => expect.fail('started twice'),
      (e: Error) => expect(e.message).to.match(/once/),
    );
    expect(await s.stop()).to.deep.equal({ released: 0, unfinished: 0 });
  });
});
