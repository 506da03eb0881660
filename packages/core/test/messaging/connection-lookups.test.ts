import { expect } from 'chai';
import type { NewConnection } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { memoizeConnectionLookups, CONNECTION_LOOKUP_TTL_MS } from '../../src/connections/connection-lookups.js';

function draft(tokenDigest: string, name = 'Main'): NewConnection {
  const now = new Date('2026-01-01T00:00:00Z');
  return {
    companyId: 1,
    name,
    kind: 'chatapp',
    provider: 'sandbox',
    status: 'CONNECTED',
    qrcode: null,
    greetingMessage: null,
    farewellMessage: null,
    outOfHoursMessage: null,
    isDefault: true,
    tokenDigest,
    tokenHint: null,
    externalId: null,
    secrets: {},
    reopenWindowMinutes: 0,
    greetingMediaKey: null,
    promptId: null,
    createdAt: now,
    updatedAt: now,
  };
}

describe('Token lookups reused for a short time', () => {
  function setup() {
    const ports = createInMemoryPorts();
    let reads = 0;
    const store = ports.connections;
    const counting = Object.assign(Object.create(store), {
      findByTokenDigest: (d: string) => {
        reads++;
        return store.findByTokenDigest(d);
      },
    });
    const memo = memoizeConnectionLookups(counting, ports.clock);
    return { ports, memo, reads: () => reads };
  }

  it('reads the store once per token within the TTL, and again after it', async () => {
    const { ports, memo, reads } = setup();
    await memo.connections.add(draft('d1'));
    for (let i = 0; i < 5; i++) expect((await memo.tokenLookup.findByTokenDigest('d1'))?.name).to.equal('Main');
    expect(reads()).to.equal(1);
    ports.clock.advance(CONNECTION_LOOKUP_TTL_MS + 1);
    await memo.tokenLookup.findByTokenDigest('d1');
    expect(reads()).to.equal(2);
  });

  it('does not remember unknown tokens, so a new connection works at once', async () => {
    const { memo } = setup();
    expect(await memo.tokenLookup.findByTokenDigest('d2')).to.equal(null);
    await memo.connections.add(draft('d2'));
    expect(await memo.tokenLookup.findByTokenDigest('d2')).to.not.equal(null);
  });

  it('forgets a connection changed or removed through it at once', async () => {
    const { memo } = setup();
    const c = await memo.connections.add(draft('d3'));
    await memo.tokenLookup.findByTokenDigest('d3');
    await memo.connections.update({ ...c, tokenDigest: 'd4', name: 'Renamed' });
    expect(await memo.tokenLookup.findByTokenDigest('d3')).to.equal(null);
    expect((await memo.tokenLookup.findByTokenDigest('d4'))?.name).to.equal('Renamed');
    await memo.connections.remove(1, c.id);
    expect(await memo.tokenLookup.findByTokenDigest('d4')).to.equal(null);
  });

  it('hands out copies: a caller changing its connection does not change the next lookup', async () => {
    const { memo } = setup();
    await memo.connections.add(draft('d5'));
    const first = (await memo.tokenLookup.findByTokenDigest('d5'))!;
    first.name = 'mutated';
    expect((await memo.tokenLookup.findByTokenDigest('d5'))!.name).to.equal('Main');
  });
});

describe('Connection reads of the inbound path reused for a short time', () => {
  it('reads a connection by id once within the TTL, again after it or after a change through the wrapper', async () => {
    const ports = createInMemoryPorts();
    let reads = 0;
    const store = ports.connections;
    const counting = Object.assign(Object.create(store), {
      findById: (c: number | null, id: number) => {
        reads++;
        return store.findById(c, id);
      },
    });
    const memo = memoizeConnectionLookups(counting, ports.clock);
    const c = await memo.connections.add(draft('d9'));
    for (let i = 0; i < 3; i++) expect((await memo.recentLookup.findById(1, c.id))?.name).to.equal('Main');
    expect(reads).to.equal(1);
    await memo.connections.update({ ...c, greetingMessage: 'Hi!' });
    expect((await memo.recentLookup.findById(1, c.id))?.greetingMessage).to.equal('Hi!');
    expect(reads).to.equal(2);
    ports.clock.advance(CONNECTION_LOOKUP_TTL_MS + 1);
    await memo.recentLookup.findById(1, c.id);
    expect(reads).to.equal(3);
    expect(await memo.recentLookup.findById(2, c.id)).to.equal(null);
  });
});
