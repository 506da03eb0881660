import { expect } from 'chai';
import type { Companies, PasswordReset, PasswordResets, Plans, Transaction, Users } from '../../src/index.js';
import { companyFixture, planFixture, userFixture } from './repositories-contract.js';

export interface PasswordResetsFixture {
  readonly passwordResets: PasswordResets;
  readonly users: Users;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly tx: Transaction;
  /** Whether a failed transaction takes back what it wrote (databases; the in-memory one does not). */
  readonly rollsBack?: boolean;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/**
 * One suite for every adapter of the PasswordResets port: "Forgot your password?" counts on one
 * pending reset per user, found by its digest, taken once.
 */
export function describePasswordResetsContract(name: string, make: () => Promise<PasswordResetsFixture>) {
  describe(`PasswordResets contract: ${name}`, () => {
    let r: PasswordResetsFixture;
    let ana: number;
    let bia: number;
    const reset = (userId: number, tokenDigest: string, expiresInMinutes = 30): PasswordReset => ({
      userId,
      tokenDigest,
      expiresAt: at(expiresInMinutes),
      createdAt: T0,
    });

    beforeEach(async () => {
      r = await make();
    });
    /** Ana and Bia of Acme (in the test's own unit of work, as the database adapters need). */
    const users = async () => {
      const plan = await r.plans.add(planFixture('P'));
      const company = await r.companies.add(companyFixture(plan.id, 'Acme'));
      ana = (await r.users.add(userFixture(company.id, 'ana@acme.test'))).id;
      bia = (await r.users.add(userFixture(company.id, 'bia@acme.test'))).id;
    };

    it('takes a reset by its digest once, with its user and times; an unknown digest takes nothing', async () => {
      await users();
      await r.passwordResets.replace(reset(ana, 'digest-a'));
      expect(await r.passwordResets.take('digest-unknown')).to.equal(null);
      expect(await r.passwordResets.take('digest-a')).to.deep.equal(reset(ana, 'digest-a'));
      expect(await r.passwordResets.take('digest-a')).to.equal(null);
    });

    it("keeps one reset per user: a newer one replaces the user's earlier one, and leaves other users' alone", async () => {
      await users();
      await r.passwordResets.replace(reset(ana, 'digest-a1'));
      await r.passwordResets.replace(reset(bia, 'digest-b'));
      await r.passwordResets.replace({ ...reset(ana, 'digest-a2', 60), createdAt: at(5) });
      expect(await r.passwordResets.take('digest-a1')).to.equal(null);
      expect(await r.passwordResets.take('digest-a2')).to.deep.equal({ ...reset(ana, 'digest-a2', 60), createdAt: at(5) });
      expect(await r.passwordResets.take('digest-b')).to.deep.equal(reset(bia, 'digest-b'));
    });

    it('lets only one of two parallel takes of a digest have it', async () => {
      await users();
      await r.passwordResets.replace(reset(ana, 'digest-a'));
      const both = await Promise.all([r.tx.run(() => r.passwordResets.take('digest-a')), r.tx.run(() => r.passwordResets.take('digest-a'))]);
      expect(both.filter((t) => t !== null)).to.have.length(1);
    });

    it('removes the resets expired before a moment, not those expiring at or after it', async () => {
      await users();
      await r.passwordResets.replace(reset(ana, 'digest-a', 10));
      await r.passwordResets.replace(reset(bia, 'digest-b', 30));
      expect(await r.passwordResets.removeExpired(at(10))).to.equal(0);
      expect(await r.passwordResets.removeExpired(at(11))).to.equal(1);
      expect(await r.passwordResets.take('digest-a')).to.equal(null);
      expect(await r.passwordResets.take('digest-b')).to.not.equal(null);
    });

    it('gives a taken reset back when its transaction fails (databases)', async function () {
      if (!r.rollsBack) return this.skip();
      await users();
      await r.passwordResets.replace(reset(ana, 'digest-a'));
      const failed = await r.tx
        .run(async () => {
          expect(await r.passwordResets.take('digest-a')).to.not.equal(null);
          throw new Error('the password could not be set');
        })
        .catch((e: Error) => e.message);
      expect(failed).to.equal('the password could not be set');
      expect(await r.passwordResets.take('digest-a')).to.deep.equal(reset(ana, 'digest-a'));
    });
  });
}

/** A user's pending reset goes with the user (databases: the foreign key's cascade). */
export function describePasswordResetsOfRemovedUsers(name: string, make: () => Promise<PasswordResetsFixture>) {
  describe(`PasswordResets of a removed user: ${name}`, () => {
    it('are removed with the user', async () => {
      const r = await make();
      const plan = await r.plans.add(planFixture('P'));
      const company = await r.companies.add(companyFixture(plan.id, 'Acme'));
      const ana = await r.users.add(userFixture(company.id, 'ana@acme.test'));
      await r.passwordResets.replace({ userId: ana.id, tokenDigest: 'digest-a', expiresAt: at(30), createdAt: T0 });
      await r.users.remove(company.id, ana.id);
      expect(await r.passwordResets.take('digest-a')).to.equal(null);
    });
  });
}
