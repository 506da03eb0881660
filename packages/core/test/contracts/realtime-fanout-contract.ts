import { expect } from 'chai';
import type { RealtimeFanout } from '../../src/index.js';

/** Two fan-out endpoints (two instances) must see each other's frames, per company and in order. */
export function describeRealtimeFanoutContract(name: string, make: () => Promise<{ a: RealtimeFanout; b: RealtimeFanout; close(): Promise<void> }>) {
  describe(`RealtimeFanout contract: ${name}`, () => {
    it('delivers a frame published on one endpoint to the listeners of both, with its company', async () => {
      const { a, b, close } = await make();
      try {
        const seenA: Array<[number, string]> = [];
        const seenB: Array<[number, string]> = [];
        const offA = await a.subscribe((c, f) => seenA.push([c, f]));
        const offB = await b.subscribe((c, f) => seenB.push([c, f]));
        await a.publish(7, '{"seq":1}');
        await a.publish(7, '{"seq":2}');
        // Order is kept per publisher; across two connections only after the first frames arrived.
        for (let i = 0; i < 50 && (seenA.length < 2 || seenB.length < 2); i++) await new Promise((r) => setTimeout(r, 20));
        await b.publish(8, '{"seq":1}');
        for (let i = 0; i < 50 && (seenA.length < 3 || seenB.length < 3); i++) await new Promise((r) => setTimeout(r, 20));
        const expected = [
          [7, '{"seq":1}'],
          [7, '{"seq":2}'],
          [8, '{"seq":1}'],
        ];
        expect(seenA).to.deep.equal(expected);
        expect(seenB).to.deep.equal(expected);
        await offA();
        // A listener added to `a` afterwards, and a marker published after the frame: once the new
        // listener has the marker, `a` has passed on everything before it, so the removed one got nothing.
        const lateA: Array<[number, string]> = [];
        const offLate = await a.subscribe((c, f) => lateA.push([c, f]));
        await b.publish(9, 'x');
        await b.publish(9, 'marker');
        for (let i = 0; i < 50 && (lateA.length < 2 || seenB.length < 5); i++) await new Promise((r) => setTimeout(r, 20));
        expect(lateA).to.deep.equal([
          [9, 'x'],
          [9, 'marker'],
        ]);
        expect(seenB.slice(3)).to.deep.equal(lateA);
        expect(seenA).to.have.length(3);
        await offLate();
        await offB();
      } finally {
        await close();
      }
    });
  });
}
