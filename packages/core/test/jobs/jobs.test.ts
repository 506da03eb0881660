import { expect } from 'chai';
import { backoffOf, exponentialBackoff, Jobs, maxAttemptsOf, ValidationError, type JobDefinition } from '../../src/index.js';
import { FixedClock, InMemoryJobStore } from '../../src/testing.js';

const noop = async () => undefined;
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: unknown) => (e instanceof ValidationError ? e.code : e),
  );

describe('Jobs: enqueueing one-off jobs', () => {
  let clock: FixedClock;
  let store: InMemoryJobStore;
  let jobs: Jobs;
  beforeEach(() => {
    clock = new FixedClock();
    store = new InMemoryJobStore(clock);
    jobs = new Jobs({
      store,
      definitions: [
        { name: 'send-schedule', run: noop },
        { name: 'relay', every: 1000, run: noop },
      ],
    });
  });

  it('stores the job for its moment with its payload as JSON keeps it', async () => {
    const at = new Date('2026-01-02T08:00:00.000Z');
    const { id, created } = await jobs.enqueue({ name: 'send-schedule', at, payload: { scheduleId: 7, when: at, skip: undefined } });
    expect(created).to.equal(true);
    const [row] = await store.list();
    expect(row).to.deep.include({ id, name: 'send-schedule', key: null, runAt: at, state: 'pending', attempts: 0 });
    expect(row!.payload).to.deep.equal({ scheduleId: 7, when: '2026-01-02T08:00:00.000Z' });
    await jobs.enqueue({ name: 'relay', at });
    expect((await store.list())[1]).to.deep.include({ payload: null, everyMs: null });
  });

  it('keeps one pending job per name and key, and cancels it by key', async () => {
    const first = await jobs.enqueue({ name: 'send-schedule', at: clock.now(), key: 'schedule-7', payload: 1 });
    const again = await jobs.enqueue({ name: 'send-schedule', at: clock.now(), key: 'schedule-7', payload: 2 });
    expect(again).to.deep.equal({ id: first.id, created: false });
    expect((await store.list()).map((r) => r.payload)).to.deep.equal([1]);
    expect(await jobs.cancel('send-schedule', 'schedule-7')).to.equal(true);
    expect(await store.list()).to.deep.equal([]);
  });

  it('refuses an unknown name, an invalid moment, an empty or long key and a payload JSON cannot hold', async () => {
    const at = clock.now();
    expect(await code(jobs.enqueue({ name: 'nope', at }))).to.equal('ERR_UNKNOWN_JOB');
    expect(await code(jobs.enqueue({ name: 'send-schedule', at: new Date('not a date') }))).to.equal('ERR_INVALID_JOB_TIME');
    expect(await code(jobs.enqueue({ name: 'send-schedule', at: '2026-01-01' as unknown as Date }))).to.equal('ERR_INVALID_JOB_TIME');
    expect(await code(jobs.enqueue({ name: 'send-schedule', at, key: '' }))).to.equal('ERR_INVALID_JOB_KEY');
    expect(await code(jobs.enqueue({ name: 'send-schedule', at, key: 'k'.repeat(201) }))).to.equal('ERR_INVALID_JOB_KEY');
    expect(await code(jobs.enqueue({ name: 'send-schedule', at, payload: 10n }))).to.equal('ERR_INVALID_JOB_PAYLOAD');
    expect(await code(jobs.enqueue({ name: 'send-schedule', at, payload: noop }))).to.equal('ERR_INVALID_JOB_PAYLOAD');
    expect(await store.list()).to.deep.equal([]);
  });

  it('refuses definitions that cannot work, when they are given', () => {
    const make = (definitions: JobDefinition[]) => () => new Jobs({ store, definitions });
    expect(
      make([
        { name: 'a', run: noop },
        { name: 'a', run: noop },
      ]),
    ).to.throw(TypeError, /twice/);
    expect(make([{ name: '', run: noop }])).to.throw(TypeError);
    expect(make([{ name: 'a', every: 0, run: noop }])).to.throw(TypeError, /every/);
    expect(make([{ name: 'a', every: Number.POSITIVE_INFINITY, run: noop }])).to.throw(TypeError, /every/);
    expect(make([{ name: 'a', leaseMs: -1, run: noop }])).to.throw(TypeError, /leaseMs/);
    expect(make([{ name: 'a', maxAttempts: Number.POSITIVE_INFINITY, run: noop }])).to.not.throw();
  });
});

describe('Job definitions: defaults', () => {
  it('back off 1 s doubling up to 5 min; a recurring job no longer than its period', () => {
    expect([1, 2, 3, 10, 20].map(backoffOf({ name: 'a', run: noop }))).to.deep.equal([1000, 2000, 4000, 300_000, 300_000]);
    expect([1, 2, 3, 10].map(backoffOf({ name: 'a', every: 3000, run: noop }))).to.deep.equal([1000, 2000, 3000, 3000]);
    expect([1, 2, 3].map(exponentialBackoff(100, 250))).to.deep.equal([100, 200, 250]);
    const own = () => 42;
    expect(backoffOf({ name: 'a', every: 10, backoff: own, run: noop })).to.equal(own);
  });

  it('try a one-off job 5 times and a recurring one until it succeeds, unless told otherwise', () => {
    expect(maxAttemptsOf({ name: 'a', run: noop })).to.equal(5);
    expect(maxAttemptsOf({ name: 'a', every: 1000, run: noop })).to.equal(Number.POSITIVE_INFINITY);
    expect(maxAttemptsOf({ name: 'a', every: 1000, maxAttempts: 3, run: noop })).to.equal(3);
  });
});
