import { expect } from 'chai';
import type { Companies, Contacts, Plans, Transaction, Users } from '../../src/index.js';
import type { WalletAssignments, WalletChange } from '../../src/contacts/wallet.js';
import { contactDraft } from './messaging-contract.js';
import { twoCompanies, userFixture } from './repositories-contract.js';

export interface ContactSellersFixture {
  readonly walletAssignments: WalletAssignments;
  readonly contacts: Contacts;
  readonly users: Users;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly tx: Transaction;
  /** Runs work in a unit of work of its own (a request context for database adapters), to race two of them. */
  readonly unitOfWork: <T>(work: () => Promise<T>) => Promise<T>;
}

const T1 = new Date('2026-03-02T10:00:00.000Z');
const T2 = new Date('2026-03-03T10:00:00.000Z');
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);

/** One suite for every adapter of the WalletAssignments port. */
export function describeContactSellersContract(name: string, make: () => Promise<ContactSellersFixture>) {
  describe(`Contact wallets repository contract: ${name}`, () => {
    let r: ContactSellersFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies, two users and a contact of the first. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
      const ana = (await r.users.add(userFixture(c1, 'ana@one.test'))).id;
      const bia = (await r.users.add(userFixture(c1, 'bia@one.test'))).id;
      const contact = await r.contacts.add(contactDraft(c1, '5511988887777'));
      return { ana, bia, contact };
    }
    const change = (contactId: number, userId: number | null, expectedUserId: number | null, at = T1): WalletChange => ({
      companyId: c1,
      contactId,
      userId,
      expectedUserId,
      assignedBy: 1,
      at,
    });

    it("sets the contact's owner alone and records the change; the latest change is by time, then id", async () => {
      const { ana, bia, contact } = await given();
      expect(await r.walletAssignments.latest(c1, contact.id)).to.equal(null);
      const first = await r.walletAssignments.assign({ ...change(contact.id, ana, null), assignedBy: bia });
      expect(first).to.deep.include({ companyId: c1, contactId: contact.id, userId: ana, previousUserId: null, assignedBy: bia, assignedAt: T1 });
      expect(await r.contacts.findById(c1, contact.id)).to.deep.include({ ...contact, walletUserId: ana, updatedAt: T1 });
      const second = await r.walletAssignments.assign(change(contact.id, null, ana, T2));
      expect(second).to.deep.include({ userId: null, previousUserId: ana });
      expect(plain(await r.walletAssignments.latest(c1, contact.id))).to.deep.equal(second);
      // Two changes at one moment: the later id is the latest.
      const third = await r.walletAssignments.assign(change(contact.id, bia, null, T2));
      expect(plain(await r.walletAssignments.latest(c1, contact.id))).to.deep.equal(third);
    });

    it("changes nothing when the owner is not the expected one, or the contact is another company's or absent", async () => {
      const { ana, bia, contact } = await given();
      await r.walletAssignments.assign(change(contact.id, ana, null));
      expect(await r.walletAssignments.assign(change(contact.id, bia, null, T2))).to.equal(null);
      expect(await r.walletAssignments.assign({ ...change(contact.id, bia, ana), companyId: c2 })).to.equal(null);
      expect(await r.walletAssignments.assign(change(contact.id + 1000, bia, null))).to.equal(null);
      expect((await r.contacts.findById(c1, contact.id))!.walletUserId).to.equal(ana);
      expect((await r.walletAssignments.latest(c1, contact.id))!.userId).to.equal(ana);
      expect(await r.walletAssignments.latest(c2, contact.id)).to.equal(null);
    });

    it('lets one of two racing changes from the same owner through; the other changes nothing', async () => {
      const { ana, bia, contact } = await given();
      const race = (userId: number) => r.unitOfWork(() => r.tx.run(() => r.walletAssignments.assign(change(contact.id, userId, null))));
      const outcomes = await Promise.all([race(ana), race(bia)]);
      const won = outcomes.filter((o) => o !== null);
      expect(won).to.have.length(1);
      expect((await r.contacts.findById(c1, contact.id))!.walletUserId).to.equal(won[0]!.userId);
      expect((await r.walletAssignments.latest(c1, contact.id))!.id).to.equal(won[0]!.id);
    });

    it("forgets a removed contact's history", async () => {
      const { ana, contact } = await given();
      await r.walletAssignments.assign(change(contact.id, ana, null));
      await r.contacts.remove(c1, contact.id);
      expect(await r.walletAssignments.latest(c1, contact.id)).to.equal(null);
    });
  });
}
