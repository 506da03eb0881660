import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import type { Cache } from '../../src/shared/ports.js';

export interface CacheFixture {
  readonly cache: Cache;
  /**
   * Moves the cache's clock forward. Without it the suite waits for real, so its TTL tests use 1-second TTLs and only
   * two tests wait (about 1.2 s each); tests that would need longer real waits are skipped.
   */
  readonly advance?: (ms: number) => Promise<void> | void;
  readonly cleanup?: () => Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * One suite for every adapter of the Cache port. Every test uses keys unique to the run and the test, so the suite can
 * run against a shared Redis.
 */
export function describeCacheContract(name: string, make: () => Promise<CacheFixture>) {
  describe(`Cache contract: ${name}`, () => {
    const run = randomBytes(6).toString('hex');
    let counter = 0;
    let f: CacheFixture;
    let cache: Cache;
    /** A key no other test (or run) uses. */
    const key = (label: string) => `contract-${run}-${++counter}:${label}`;
    const elapse = async (ms: number) => {
      if (f.advance) await f.advance(ms);
      else await sleep(ms);
    };

    beforeEach(async () => {
      f = await make();
      cache = f.cache;
    });
    afterEach(async () => {
      await f?.cleanup?.();
    });

    describe('get, set and delete', () => {
      it('answers null for a key that was never set', async () => {
        expect(await cache.get(key('missing'))).to.equal(null);
      });

      it('returns what was set, and a later set replaces it', async () => {
        const k = key('value');
        await cache.set(k, 'first', 60);
        expect(await cache.get(k)).to.equal('first');
        await cache.set(k, 'sécond: {"json": true}', 60);
        expect(await cache.get(k)).to.equal('sécond: {"json": true}');
      });

      it('keeps keys apart', async () => {
        const a = key('a');
        const b = key('b');
        await cache.set(a, 'A', 60);
        await cache.set(b, 'B', 60);
        expect([await cache.get(a), await cache.get(b)]).to.deep.equal(['A', 'B']);
      });

      it('deletes values, counters and windows, and deleting a missing key does nothing', async () => {
        const value = key('value');
        const counter = key('counter');
        const window = key('window');
        const other = key('other');
        await cache.set(value, 'x', 60);
        await cache.increment(counter, 60);
        await cache.windowAppend(window, 1, 'x', 10, 60);
        await cache.set(other, 'kept', 60);
        await cache.delete(value);
        await cache.delete(counter);
        await cache.delete(window);
        await cache.delete(key('never-set'));
        expect(await cache.get(value)).to.equal(null);
        expect(await cache.ttl(value)).to.equal(null);
        expect(await cache.increment(counter, 60)).to.equal(1);
        expect(await cache.windowAfter(window, 0)).to.deep.equal([]);
        expect(await cache.windowLowest(window)).to.equal(null);
        expect(await cache.get(other)).to.equal('kept');
      });
    });

    describe('expiry', () => {
      it('expires values, flags and counters after their TTL', async () => {
        const value = key('value');
        const flag = key('flag');
        const counter = key('counter');
        await cache.set(value, 'v', 1);
        expect(await cache.setIfAbsent(flag, 'first', 1)).to.equal(true);
        expect(await cache.increment(counter, 1)).to.equal(1);
        expect(await cache.increment(counter, 1)).to.equal(2);
        expect(await cache.get(value)).to.equal('v');

        await elapse(1200);

        expect(await cache.get(value)).to.equal(null);
        expect(await cache.ttl(value)).to.equal(null);
        expect(await cache.get(flag)).to.equal(null);
        expect(await cache.setIfAbsent(flag, 'second', 60)).to.equal(true);
        expect(await cache.get(flag)).to.equal('second');
        expect(await cache.increment(counter, 60)).to.equal(1);
      });

      it('keeps the TTL a counter was created with, and refreshes a window TTL on every append', async () => {
        const counter = key('counter');
        const stale = key('stale-window');
        const fresh = key('fresh-window');
        expect(await cache.increment(counter, 1)).to.equal(1);
        await cache.windowAppend(stale, 1, 'a', 10, 1);
        await cache.windowAppend(fresh, 1, 'a', 10, 1);

        await elapse(600);
        expect(await cache.increment(counter, 1)).to.equal(2); // does not push the expiry back
        await cache.windowAppend(fresh, 2, 'b', 10, 1); // does

        await elapse(600);
        expect(await cache.increment(counter, 1)).to.equal(1);
        expect(await cache.windowAfter(stale, 0)).to.deep.equal([]);
        expect(await cache.windowLowest(stale)).to.equal(null);
        expect(await cache.windowAfter(fresh, 0)).to.deep.equal([
          { score: 1, value: 'a' },
          { score: 2, value: 'b' },
        ]);
      });

      it('counts the TTL down in whole seconds, rounding up', async function () {
        if (!f.advance) return this.skip(); // would need long real waits
        const k = key('value');
        await cache.set(k, 'v', 60);
        await elapse(15_000);
        expect(await cache.ttl(k)).to.equal(45);
        await elapse(14_500);
        expect(await cache.ttl(k)).to.equal(31);
        await elapse(30_499);
        expect(await cache.ttl(k)).to.equal(1);
        expect(await cache.get(k)).to.equal('v');
        await elapse(1);
        expect(await cache.ttl(k)).to.equal(null);
        expect(await cache.get(k)).to.equal(null);
      });
    });

    describe('setIfAbsent', () => {
      it('lets the first writer win', async () => {
        const k = key('flag');
        expect(await cache.setIfAbsent(k, 'first', 60)).to.equal(true);
        expect(await cache.setIfAbsent(k, 'second', 60)).to.equal(false);
        expect(await cache.get(k)).to.equal('first');
        expect(await cache.ttl(k)).to.be.within(59, 60);
      });

      it('does not replace a value written by set, and works again after delete', async () => {
        const k = key('flag');
        await cache.set(k, 'existing', 60);
        expect(await cache.setIfAbsent(k, 'new', 60)).to.equal(false);
        expect(await cache.get(k)).to.equal('existing');
        await cache.delete(k);
        expect(await cache.setIfAbsent(k, 'new', 60)).to.equal(true);
        expect(await cache.get(k)).to.equal('new');
      });

      it('lets exactly one of 20 concurrent writers win', async () => {
        const k = key('race');
        const results = await Promise.all(Array.from({ length: 20 }, (_, i) => cache.setIfAbsent(k, `writer-${i}`, 60)));
        expect(results.filter((won) => won)).to.have.length(1);
        expect(await cache.get(k)).to.equal(`writer-${results.indexOf(true)}`);
      });
    });

    describe('increment', () => {
      it('creates the counter at 1 with the TTL, then counts', async () => {
        const k = key('counter');
        expect(await cache.ttl(k)).to.equal(null);
        expect(await cache.increment(k, 60)).to.equal(1);
        expect(await cache.ttl(k)).to.be.within(59, 60);
        expect(await cache.increment(k, 60)).to.equal(2);
        expect(await cache.increment(k, 60)).to.equal(3);
        expect(await cache.get(k)).to.equal('3');
      });

      it('counts exactly under 20 concurrent increments', async () => {
        const k = key('counter');
        const results = await Promise.all(Array.from({ length: 20 }, () => cache.increment(k, 60)));
        expect([...results].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: 20 }, (_, i) => i + 1));
        expect(await cache.get(k)).to.equal('20');
        expect(await cache.ttl(k)).to.be.within(59, 60);
      });

      it('adds a given step, negative to give back, keeping the expiry', async () => {
        const k = key('stepped');
        expect(await cache.increment(k, 60, 3)).to.equal(3);
        expect(await cache.increment(k, 5, -1)).to.equal(2);
        expect(await cache.ttl(k)).to.be.within(59, 60);
        expect(await cache.increment(key('fresh'), 60, -1)).to.equal(-1);
      });

      it('keeps separate counters apart', async () => {
        const a = key('a');
        const b = key('b');
        await cache.increment(a, 60);
        await cache.increment(a, 60);
        expect(await cache.increment(b, 60)).to.equal(1);
        expect(await cache.increment(a, 60)).to.equal(3);
      });
    });

    describe('ttl', () => {
      it('is null for a missing key and the remaining seconds for values and windows', async () => {
        const value = key('value');
        const window = key('window');
        expect(await cache.ttl(key('missing'))).to.equal(null);
        await cache.set(value, 'v', 60);
        await cache.windowAppend(window, 1, 'x', 10, 120);
        expect(await cache.ttl(value)).to.be.within(59, 60);
        expect(await cache.ttl(window)).to.be.within(119, 120);
        await cache.set(value, 'v', 300); // set replaces the TTL too
        expect(await cache.ttl(value)).to.be.within(299, 300);
      });
    });

    describe('windows', () => {
      it('returns entries oldest first by score, whatever the append order', async () => {
        const k = key('window');
        const now = 1_767_268_800_000; // a millisecond timestamp must survive as a score
        for (const [score, value] of [
          [30, 'c'],
          [1.5, 'a'],
          [now, 'd'],
          [20.25, 'b'],
        ] as const)
          await cache.windowAppend(k, score, value, 100, 60);
        expect(await cache.windowAfter(k, -Infinity)).to.deep.equal([
          { score: 1.5, value: 'a' },
          { score: 20.25, value: 'b' },
          { score: 30, value: 'c' },
          { score: now, value: 'd' },
        ]);
        expect(await cache.windowLowest(k)).to.equal(1.5);
      });

      it('returns only entries with a score strictly greater than the one given', async () => {
        const k = key('window');
        for (const score of [10, 20, 30]) await cache.windowAppend(k, score, `event-${score}`, 100, 60);
        expect((await cache.windowAfter(k, 10)).map((e) => e.score)).to.deep.equal([20, 30]);
        expect((await cache.windowAfter(k, 15)).map((e) => e.score)).to.deep.equal([20, 30]);
        expect((await cache.windowAfter(k, 9.99)).map((e) => e.score)).to.deep.equal([10, 20, 30]);
        expect(await cache.windowAfter(k, 30)).to.deep.equal([]);
        expect(await cache.windowAfter(k, 1e9)).to.deep.equal([]);
      });

      it('keeps at most maxEntries, dropping the lowest scores', async () => {
        const k = key('window');
        for (const score of [1, 2, 3, 4, 5]) await cache.windowAppend(k, score, `e${score}`, 3, 60);
        expect(await cache.windowAfter(k, 0)).to.deep.equal([
          { score: 3, value: 'e3' },
          { score: 4, value: 'e4' },
          { score: 5, value: 'e5' },
        ]);
        expect(await cache.windowLowest(k)).to.equal(3);
        await cache.windowAppend(k, 0, 'late', 3, 60); // lower than everything held: dropped at once
        expect((await cache.windowAfter(k, -1)).map((e) => e.value)).to.deep.equal(['e3', 'e4', 'e5']);
        await cache.windowAppend(k, 3.5, 'between', 3, 60);
        expect((await cache.windowAfter(k, -1)).map((e) => e.value)).to.deep.equal(['between', 'e4', 'e5']);
        expect(await cache.windowLowest(k)).to.equal(3.5);
      });

      it('keeps equal values appended twice as two entries, and values of any shape', async () => {
        const k = key('window');
        const json = JSON.stringify({ type: 'ticket:update', id: 7, text: 'olá: 1:2' });
        await cache.windowAppend(k, 1, 'same', 10, 60);
        await cache.windowAppend(k, 2, 'same', 10, 60);
        await cache.windowAppend(k, 3, json, 10, 60);
        await cache.windowAppend(k, 4, '', 10, 60);
        expect(await cache.windowAfter(k, 0)).to.deep.equal([
          { score: 1, value: 'same' },
          { score: 2, value: 'same' },
          { score: 3, value: json },
          { score: 4, value: '' },
        ]);
      });

      it('answers [] and null for an empty window', async () => {
        const k = key('window');
        expect(await cache.windowAfter(k, 0)).to.deep.equal([]);
        expect(await cache.windowAfter(k, -Infinity)).to.deep.equal([]);
        expect(await cache.windowLowest(k)).to.equal(null);
      });

      it('keeps windows apart', async () => {
        const a = key('a');
        const b = key('b');
        await cache.windowAppend(a, 1, 'in-a', 10, 60);
        await cache.windowAppend(b, 2, 'in-b', 10, 60);
        expect(await cache.windowAfter(a, 0)).to.deep.equal([{ score: 1, value: 'in-a' }]);
        expect(await cache.windowLowest(b)).to.equal(2);
      });
    });
  });
}
