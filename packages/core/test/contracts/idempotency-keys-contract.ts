import { expect } from 'chai';
import type { IdempotencyKeys, IdempotencyRecord, Transaction } from '../../src/index.js';

export interface IdempotencyKeysFixture {
  readonly idempotencyKeys: IdempotencyKeys;
  readonly tx: Transaction;
  /** Whether a failed transaction takes back what it wrote (databases; the in-memory one does not). */
  readonly rollsBack?: boolean;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (hours: number) => new Date(T0.getTime() + hours * 3600_000);

function record(overrides: Partial<IdempotencyRecord> = {}): IdempotencyRecord {
  return {
    companyId: 1,
    connectionId: 10,
    key: 'order-1',
    fingerprint: 'a'.repeat(64),
    answer: { status: 'SUCCESS', ticketId: 3, messageIds: ['m-1'] },
    createdAt: T0,
    ...overrides,
  };
}

/**
 * One suite for every adapter of the IdempotencyKeys port: the sends that answer for a key (the
 * message API's and the operators') count on one stored answer per connection and key.
 */
export function describeIdempotencyKeysContract(name: string, make: () => Promise<IdempotencyKeysFixture>) {
  describe(`IdempotencyKeys contract: ${name}`, () => {
    let r: IdempotencyKeysFixture;
    beforeEach(async () => {
      r = await make();
    });

    it('stores a key with its answer as JSON (nested objects, arrays, nulls, text of any script) and finds it by connection and key', async () => {
      const answer = {
        messages: [{ id: 'm-1', body: 'Olá, tudo bem? 你好 🙂', media: null, ack: 0, createdAt: '2026-03-01T10:00:00.000Z' }],
        ticket: { id: 7, status: 'open', tags: [], contact: { name: 'Ana', tags: [{ id: 1, name: 'VIP' }] } },
      };
      expect(await r.idempotencyKeys.add(record({ answer }))).to.equal(true);
      const found = await r.idempotencyKeys.find(10, 'order-1');
      expect(found).to.deep.equal(record({ answer }));
      expect(await r.idempotencyKeys.find(10, 'order-2')).to.equal(null);
      expect(await r.idempotencyKeys.find(11, 'order-1')).to.equal(null);
    });

    it('keeps the first record of a connection and key: a second add answers false and changes nothing; another connection has its own', async () => {
      expect(await r.idempotencyKeys.add(record())).to.equal(true);
      expect(await r.idempotencyKeys.add(record({ fingerprint: 'b'.repeat(64), answer: { other: true }, createdAt: at(1) }))).to.equal(false);
      expect(await r.idempotencyKeys.find(10, 'order-1')).to.deep.equal(record());
      expect(await r.idempotencyKeys.add(record({ connectionId: 11, fingerprint: 'c'.repeat(64) }))).to.equal(true);
      expect((await r.idempotencyKeys.find(11, 'order-1'))?.fingerprint).to.equal('c'.repeat(64));
      // Keys are compared exactly: case and length matter.
      expect(await r.idempotencyKeys.add(record({ key: 'ORDER-1' }))).to.equal(true);
      expect(await r.idempotencyKeys.add(record({ key: 'k'.repeat(200) }))).to.equal(true);
      expect((await r.idempotencyKeys.find(10, 'k'.repeat(200)))?.key).to.equal('k'.repeat(200));
    });

    it('removes the keys stored before a moment, answering how many, and keeps the later ones', async () => {
      await r.idempotencyKeys.add(record({ key: 'old-1', createdAt: at(-30) }));
      await r.idempotencyKeys.add(record({ key: 'old-2', connectionId: 11, createdAt: at(-25) }));
      await r.idempotencyKeys.add(record({ key: 'recent', createdAt: at(-1) }));
      expect(await r.idempotencyKeys.removeOlderThan(at(-24))).to.equal(2);
      expect(await r.idempotencyKeys.find(10, 'old-1')).to.equal(null);
      expect(await r.idempotencyKeys.find(11, 'old-2')).to.equal(null);
      expect((await r.idempotencyKeys.find(10, 'recent'))?.key).to.equal('recent');
      expect(await r.idempotencyKeys.removeOlderThan(at(-24))).to.equal(0);
    });

    it('concurrent transactions adding one key: exactly one stores it, and its record is the one found', async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 6 }, (_, i) => r.tx.run(() => r.idempotencyKeys.add(record({ fingerprint: String(i).repeat(64), answer: { n: i } })))),
      );
      expect(outcomes.filter(Boolean)).to.have.length(1);
      const winner = outcomes.indexOf(true);
      expect(await r.idempotencyKeys.find(10, 'order-1')).to.deep.equal(record({ fingerprint: String(winner).repeat(64), answer: { n: winner } }));
    });

    it('a key added in a transaction that fails is not stored (databases only)', async function () {
      if (!r.rollsBack) this.skip();
      await r.tx
        .run(async () => {
          expect(await r.idempotencyKeys.add(record())).to.equal(true);
          expect((await r.idempotencyKeys.find(10, 'order-1'))?.key, 'seen inside its transaction').to.equal('order-1');
          throw new Error('boom');
        })
        .catch(() => undefined);
      expect(await r.idempotencyKeys.find(10, 'order-1')).to.equal(null);
      expect(await r.idempotencyKeys.add(record())).to.equal(true);
    });
  });
}
