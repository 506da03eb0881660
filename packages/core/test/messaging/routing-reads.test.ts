import { expect } from 'chai';
import { RoutingReads } from '../../src/conversations/routing-reads.js';
import { InMemoryCache } from '../../src/in-process/cache.js';
import type { RealtimeEventShape } from '../../src/realtime/ports.js';
import { FixedClock } from '../../src/testing.js';

let n = 0;
const ids = { uuid: () => `mark-${++n}` };

/** Two instances of the backend: one shared cache, a kept read each, a store that counts its reads. */
function world() {
  const clock = new FixedClock();
  const cache = new InMemoryCache(clock);
  const a = new RoutingReads({ cache, clock, ids });
  const b = new RoutingReads({ cache, clock, ids });
  let value = 'America/Sao_Paulo';
  let loads = 0;
  const load = async () => {
    loads++;
    return value;
  };
  return {
    clock,
    cache,
    a,
    b,
    load,
    set: (v: string) => {
      value = v;
    },
    loads: () => loads,
  };
}

describe('Routing reads kept per process until what they read changes', () => {
  it('reads the store once while nothing changes, and answers copies', async () => {
    const w = world();
    for (let i = 0; i < 5; i++) {
      await w.a.check(1);
      expect(await w.a.read(1, 'setting:timezone', w.load)).to.equal('America/Sao_Paulo');
    }
    expect(w.loads()).to.equal(1);
    const kept = new RoutingReads({ cache: w.cache, clock: w.clock, ids });
    const list = await kept.read(1, 'list', async () => [{ id: 1 }]);
    list[0]!.id = 99;
    expect(await kept.read(1, 'list', async () => [{ id: 2 }])).to.deep.equal([{ id: 1 }]);
  });

  it('a frame about a routing entity, published on one instance, makes the other read again at its next check; other frames and other companies do not', async () => {
    const w = world();
    await w.a.read(1, 'setting:timezone', w.load);
    await w.b.read(1, 'setting:timezone', w.load);
    await w.b.read(2, 'setting:timezone', w.load);
    expect(w.loads()).to.equal(3);
    const sent: string[] = [];
    const realtime = w.a.watching<RealtimeEventShape>({
      publish: async (_companyId, event) => {
        sent.push(event.entity);
      },
    });
    await realtime.publish(1, { entity: 'contact', data: { action: 'update' } });
    await w.b.check(1);
    await w.b.read(1, 'setting:timezone', w.load);
    expect(w.loads(), 'a contact frame changes nothing the routing reads').to.equal(3);
    w.set('Europe/Lisbon');
    await realtime.publish(1, { entity: 'settings', data: { action: 'update' } });
    expect(sent, 'every frame still published').to.deep.equal(['contact', 'settings']);
    await w.b.check(1);
    expect(await w.b.read(1, 'setting:timezone', w.load)).to.equal('Europe/Lisbon');
    await w.b.check(2);
    await w.b.read(2, 'setting:timezone', w.load);
    expect(w.loads(), 'company 2 kept its read').to.equal(4);
    await w.a.check(1);
    expect(await w.a.read(1, 'setting:timezone', w.load)).to.equal('Europe/Lisbon');
  });

  it('a read without a recent check looks at the mark itself', async () => {
    const w = world();
    await w.a.read(1, 'flows', w.load);
    await w.b.changed(1);
    await w.a.read(1, 'flows', w.load);
    expect(w.loads(), 'checked a moment ago: kept').to.equal(1);
    w.clock.advance(1_001);
    await w.a.read(1, 'flows', w.load);
    expect(w.loads()).to.equal(2);
  });

  it('an emptied cache (the test backend reset) and the end of the read TTL both read again', async () => {
    const w = world();
    await w.a.read(1, 'queues', w.load);
    w.cache.clear();
    await w.a.check(1);
    await w.a.read(1, 'queues', w.load);
    expect(w.loads()).to.equal(2);
    w.clock.advance(60_001);
    await w.a.check(1);
    await w.a.read(1, 'queues', w.load);
    expect(w.loads()).to.equal(3);
  });
});
