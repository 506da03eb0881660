import { expect } from 'chai';
import { groupCommit } from '../../src/shared/group-commit.js';

/** A batch writer whose batches finish only when the test says so. */
function gatedWriter() {
  const batches: number[][] = [];
  const gates: Array<() => void> = [];
  const started: Array<() => void> = [];
  const write = groupCommit<number, number>(async (items) => {
    batches.push([...items]);
    started.shift()?.();
    await new Promise<void>((resolve) => gates.push(resolve));
    return items.map((n) => n * 10);
  });
  /** Resolves when the next batch has started writing. */
  const nextBatch = () => new Promise<void>((resolve) => started.push(resolve));
  return { write, batches, nextBatch, release: () => gates.shift()!() };
}

describe('groupCommit', () => {
  it('writes an idle call at once, alone', async () => {
    const w = gatedWriter();
    const started = w.nextBatch();
    const answer = w.write(1);
    await started;
    w.release();
    expect(await answer).to.equal(10);
    expect(w.batches).to.deep.equal([[1]]);
  });

  it('gathers the calls made while a batch is written into the next batch, in order, and answers each its own result', async () => {
    const w = gatedWriter();
    let started = w.nextBatch();
    const first = w.write(1);
    await started;
    started = w.nextBatch();
    const waiting = [w.write(2), w.write(3), w.write(4)];
    w.release();
    await started;
    expect(w.batches).to.deep.equal([[1], [2, 3, 4]]);
    w.release();
    expect(await Promise.all([first, ...waiting])).to.deep.equal([10, 20, 30, 40]);
  });

  it('rejects only the call whose result is an error, and every call of a batch that fails; later batches still run', async () => {
    let fail = false;
    const write = groupCommit<number, number>(async (items) => {
      if (fail) throw new Error('store down');
      return items.map((n) => (n < 0 ? new Error(`bad ${n}`) : n));
    });
    const results = await Promise.allSettled([write(1), write(-2), write(3)]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).to.deep.equal([1, 'bad -2', 3]);
    fail = true;
    const failed = await Promise.allSettled([write(4), write(5)]);
    expect(failed.map((r) => r.status)).to.deep.equal(['rejected', 'rejected']);
    fail = false;
    expect(await write(6)).to.equal(6);
  });
});
