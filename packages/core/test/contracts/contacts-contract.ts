import { expect } from 'chai';
import type { Companies, Contact, Contacts, Plans, Transaction, Users } from '../../src/index.js';
import { contactDraft } from './messaging-contract.js';
import { userFixture, twoCompanies } from './repositories-contract.js';

export interface ContactsFixture {
  readonly contacts: Contacts;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly users: Users;
  readonly tx: Transaction;
  /** Whether a failed transaction leaves nothing behind (true for databases). */
  readonly rollsBack: boolean;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const page = (offset = 0, limit = 20) => ({ offset, limit });
const times = <T>(n: number, fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code ?? String(e),
  );
const WITH_NINE = '5511988887777';
const WITHOUT_NINE = '551188887777';

/** One suite for every adapter of the Contacts port: identifiers, the ninth digit, search, changes, imports. */
export function describeContactsContract(name: string, make: () => Promise<ContactsFixture>) {
  describe(`Contacts repository contract: ${name}`, () => {
    let r: ContactsFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });
    /** Two companies. Called by each test body: database adapters run test bodies in a unit of work. */
    async function given() {
      [c1, c2] = await twoCompanies(r);
    }
    const ids = (cs: Array<Contact | null>) => cs.map((c) => c?.id ?? null);

    describe('resolution', () => {
      it('creates a contact with the defaults and its phone identifier; the other form of a Brazilian mobile reaches it', async () => {
        await given();
        const created = await r.contacts.getOrCreate({
          companyId: c1,
          name: 'Ana',
          number: WITHOUT_NINE,
          email: null,
          isGroup: false,
          profilePicUrl: null,
          createdAt: T0,
          updatedAt: T0,
        });
        expect(created).to.deep.equal(contactDraft(c1, WITHOUT_NINE, { name: 'Ana', id: created.id }));
        expect(await r.contacts.identifiersOf(c1, created.id)).to.deep.equal([{ kind: 'phone', value: WITH_NINE, pageId: null }]);
        const again = await r.contacts.getOrCreate(contactDraft(c1, WITH_NINE, { name: 'Other name' }));
        expect(again).to.deep.include({ id: created.id, name: 'Ana', number: WITHOUT_NINE });
        expect(ids([await r.contacts.findByNumber(c1, WITH_NINE), await r.contacts.findByNumber(c1, WITHOUT_NINE)])).to.deep.equal([created.id, created.id]);
        expect((await r.contacts.findByIdentifier(c1, 'phone', WITHOUT_NINE))?.id).to.equal(created.id);
        const elsewhere = await r.contacts.getOrCreate(contactDraft(c2, WITH_NINE));
        expect(elsewhere.id).to.not.equal(created.id);
        expect(await r.contacts.findByNumber(c2, WITHOUT_NINE)).to.deep.include({ id: elsewhere.id });
      });

      it('finds many contacts by id in one read, within the company only', async () => {
        await given();
        const a = await r.contacts.getOrCreate(contactDraft(c1, '5511911110001', { name: 'A' }));
        const b = await r.contacts.getOrCreate(contactDraft(c1, '5511911110002', { name: 'B' }));
        const other = await r.contacts.getOrCreate(contactDraft(c2, '5511911110003', { name: 'Other' }));
        const found = await r.contacts.findByIds(c1, [b.id, a.id, a.id, other.id, 999_999]);
        expect(found.map((c) => c.name).sort()).to.deep.equal(['A', 'B']);
        expect(found.find((c) => c.id === a.id)).to.deep.equal(await r.contacts.findById(c1, a.id));
        expect(await r.contacts.findByIds(c1, [])).to.deep.equal([]);
      });

      it('keeps landlines and foreign numbers apart from their "ninth digit" look-alikes', async () => {
        await given();
        const landline = await r.contacts.getOrCreate(contactDraft(c1, '551133334444'));
        const mobile = await r.contacts.getOrCreate(contactDraft(c1, '5511933334444'));
        const foreign = await r.contacts.getOrCreate(contactDraft(c1, '14155550100'));
        expect(new Set([landline.id, mobile.id, foreign.id]).size).to.equal(3);
        expect(await r.contacts.findByNumber(c1, '4155550100')).to.equal(null);
      });

      it('finds a group by its stored number only, and gives it no identifier', async () => {
        await given();
        const group = await r.contacts.getOrCreate(contactDraft(c1, '120363025246125486', { isGroup: true, name: 'Group' }));
        expect(await r.contacts.identifiersOf(c1, group.id)).to.deep.equal([]);
        expect((await r.contacts.getOrCreate(contactDraft(c1, '120363025246125486', { isGroup: true }))).id).to.equal(group.id);
        expect((await r.contacts.findByNumber(c1, '120363025246125486'))?.id).to.equal(group.id);
      });

      it('ten concurrent get-or-creates, with both forms of one mobile, yield one contact', async () => {
        await given();
        const got = await times(10, (i) => r.contacts.getOrCreate(contactDraft(c1, i % 2 ? WITH_NINE : WITHOUT_NINE, { name: `Racer ${i}` })));
        expect(new Set(got.map((c) => c.id)).size).to.equal(1);
        expect((await r.contacts.list({ companyId: c1, page: page() })).count).to.equal(1);
      });

      it('reaches a contact through a linked LID or page-scoped id, one owner each', async () => {
        await given();
        const ana = await r.contacts.getOrCreate(contactDraft(c1, WITH_NINE));
        const bia = await r.contacts.getOrCreate(contactDraft(c1, '5511977776666'));
        await r.contacts.linkIdentifier(c1, ana.id, { kind: 'lid', value: '123456789012345', pageId: null });
        await r.contacts.linkIdentifier(c1, ana.id, { kind: 'psid', value: '99887766', pageId: 'page-1' });
        await r.contacts.linkIdentifier(c1, ana.id, { kind: 'lid', value: '123456789012345', pageId: null });
        expect(await r.contacts.identifiersOf(c1, ana.id)).to.deep.equal([
          { kind: 'phone', value: WITH_NINE, pageId: null },
          { kind: 'lid', value: '123456789012345', pageId: null },
          { kind: 'psid', value: '99887766', pageId: 'page-1' },
        ]);
        expect((await r.contacts.getOrCreate(contactDraft(c1, '123456789012345'))).id).to.equal(ana.id);
        expect((await r.contacts.findByNumber(c1, '99887766'))?.id).to.equal(ana.id);
        expect((await r.contacts.findByIdentifier(c1, 'psid', '99887766'))?.id).to.equal(ana.id);
        expect(await code(r.contacts.linkIdentifier(c1, bia.id, { kind: 'lid', value: '123456789012345', pageId: null }))).to.equal('ERR_IDENTIFIER_IN_USE');
        expect(await code(r.contacts.linkIdentifier(c1, bia.id, { kind: 'phone', value: WITHOUT_NINE, pageId: null }))).to.equal('ERR_IDENTIFIER_IN_USE');
        await r.contacts.linkIdentifier(c2, bia.id, { kind: 'lid', value: '123456789012345', pageId: null });
        expect(await r.contacts.findByIdentifier(c2, 'lid', '123456789012345')).to.equal(null);
        await r.contacts.unlinkIdentifier(c1, ana.id, 'lid', '123456789012345');
        expect(await r.contacts.findByIdentifier(c1, 'lid', '123456789012345')).to.equal(null);
        expect((await r.contacts.identifiersOf(c1, ana.id)).map((i) => i.kind)).to.deep.equal(['phone', 'psid']);
      });
    });

    describe('changes', () => {
      it('adds with every field, refusing a number that already reaches a contact', async () => {
        await given();
        const u = (await r.users.add(userFixture(c1, 'u@one.test'))).id;
        const draft = contactDraft(c1, WITH_NINE, {
          name: 'Zoë',
          email: 'zoe@x.test',
          blocked: true,
          acceptAudio: false,
          disableBot: true,
          walletUserId: u,
          linkedUserId: u,
          extraInfo: [
            { name: 'CPF', value: '123' },
            { name: 'Plano', value: 'Ouro' },
          ],
          profilePicUrl: 'https://pic.test/z.jpg',
          updatedAt: at(1),
        });
        const added = await r.contacts.add(draft);
        expect(added).to.deep.equal({ ...draft, id: added.id });
        const found = await r.contacts.findById(c1, added.id);
        expect({ ...found }).to.deep.equal({ ...draft, id: added.id });
        expect(found!.updatedAt.toISOString()).to.equal(at(1).toISOString());
        expect(await r.contacts.findById(c2, added.id)).to.equal(null);
        expect(await code(r.contacts.add(contactDraft(c1, WITHOUT_NINE)))).to.equal('ERR_DUPLICATED_CONTACT');
        expect(await code(r.contacts.add(contactDraft(c1, WITH_NINE)))).to.equal('ERR_DUPLICATED_CONTACT');
        expect((await r.contacts.list({ companyId: c1, page: page() })).count).to.equal(1);
        expect((await r.contacts.add(contactDraft(c2, WITH_NINE))).companyId).to.equal(c2);
      });

      it('updates every field; the phone identifier follows the number, and conflicts are refused', async () => {
        await given();
        const [u1, u2] = [(await r.users.add(userFixture(c1, 'u1@one.test'))).id, (await r.users.add(userFixture(c1, 'u2@one.test'))).id];
        const ana = await r.contacts.add(contactDraft(c1, WITH_NINE, { name: 'Ana' }));
        const bia = await r.contacts.add(contactDraft(c1, '5511977776666', { name: 'Bia', linkedUserId: u1 }));
        const changed: Contact = {
          ...ana,
          name: 'Ana Maria',
          number: '5521966665555',
          email: 'ana@x.test',
          blocked: true,
          acceptAudio: false,
          disableBot: true,
          walletUserId: u2,
          linkedUserId: u2,
          extraInfo: [{ name: 'k', value: 'v' }],
          updatedAt: at(5),
        };
        await r.contacts.update(changed);
        expect({ ...(await r.contacts.findById(c1, ana.id)) }).to.deep.equal(changed);
        expect(await r.contacts.findByNumber(c1, WITH_NINE)).to.equal(null);
        expect((await r.contacts.findByNumber(c1, '552166665555'))?.id).to.equal(ana.id);
        expect(await r.contacts.identifiersOf(c1, ana.id)).to.deep.equal([{ kind: 'phone', value: '5521966665555', pageId: null }]);
        expect(await code(r.contacts.update({ ...changed, number: '551177776666' }))).to.equal('ERR_DUPLICATED_CONTACT');
        expect(await code(r.contacts.update({ ...changed, number: '5511977776666' }))).to.equal('ERR_DUPLICATED_CONTACT');
        expect(await code(r.contacts.update({ ...changed, linkedUserId: u1 }))).to.equal('ERR_USER_ALREADY_LINKED');
        expect((await r.contacts.findById(c1, ana.id))!.number).to.equal('5521966665555');
        expect((await r.contacts.findByNumber(c1, '5511977776666'))?.id).to.equal(bia.id);
        await r.contacts.update({ ...changed, companyId: c2, name: 'Intruder' });
        expect((await r.contacts.findById(c1, ana.id))!.name).to.equal('Ana Maria');
      });

      it('removes a contact and its identifiers within its company only', async () => {
        await given();
        const ana = await r.contacts.add(contactDraft(c1, WITH_NINE));
        await r.contacts.linkIdentifier(c1, ana.id, { kind: 'lid', value: 'L1', pageId: null });
        await r.contacts.remove(c2, ana.id);
        expect(await r.contacts.findById(c1, ana.id)).to.not.equal(null);
        await r.contacts.remove(c1, ana.id);
        expect(await r.contacts.findById(c1, ana.id)).to.equal(null);
        expect(await r.contacts.findByNumber(c1, WITHOUT_NINE)).to.equal(null);
        expect(await r.contacts.findByIdentifier(c1, 'lid', 'L1')).to.equal(null);
        expect((await r.contacts.getOrCreate(contactDraft(c1, WITHOUT_NINE))).id).to.not.equal(ana.id);
      });

      it('a failed transaction leaves no contact and no identifier (databases only)', async function () {
        if (!r.rollsBack) this.skip();
        await given();
        await r.tx
          .run(async () => {
            const c = await r.contacts.add(contactDraft(c1, WITH_NINE));
            await r.contacts.linkIdentifier(c1, c.id, { kind: 'lid', value: 'L1', pageId: null });
            throw new Error('boom');
          })
          .catch(() => undefined);
        expect(await r.contacts.findByNumber(c1, WITH_NINE)).to.equal(null);
        expect(await r.contacts.findByIdentifier(c1, 'lid', 'L1')).to.equal(null);
      });
    });

    describe('list', () => {
      it('pages by folded name, searching name and e-mail without accents or case, and numbers by their digits', async () => {
        await given();
        const add = (n: string, name: string, email: string | null = null) => r.contacts.add(contactDraft(c1, n, { name, email }));
        const zoe = await add('5511900000001', 'Zoë Müller', 'zoe@mail.test');
        const andre = await add('5511900000002', 'André', null);
        const bia = await add('5521900000003', 'bia', 'BIA@Work.test');
        await r.contacts.add(contactDraft(c2, '5511900000004', { name: 'Zoe Other' }));
        const names = async (search?: string, p = page()) => {
          const res = await r.contacts.list({ companyId: c1, search, page: p });
          return { count: res.count, ids: res.rows.map((c) => c.id) };
        };
        expect(await names()).to.deep.equal({ count: 3, ids: [andre.id, bia.id, zoe.id] });
        expect(await names('ZOE muller')).to.deep.equal({ count: 1, ids: [zoe.id] });
        expect(await names('andre')).to.deep.equal({ count: 1, ids: [andre.id] });
        expect(await names('work.TEST')).to.deep.equal({ count: 1, ids: [bia.id] });
        expect(await names('+55 (11) 9000')).to.deep.equal({ count: 2, ids: [andre.id, zoe.id] });
        expect(await names('00000003')).to.deep.equal({ count: 1, ids: [bia.id] });
        expect(await names('100%')).to.deep.equal({ count: 0, ids: [] });
        expect(await names(undefined, page(1, 1))).to.deep.equal({ count: 3, ids: [bia.id] });
      });
    });

    describe('imports', () => {
      it('creates new people and merges known ones (ninth digit or not), filling an empty e-mail and a name that is just the number', async () => {
        await given();
        const known = await r.contacts.getOrCreate(contactDraft(c1, WITH_NINE, { name: WITH_NINE }));
        const named = await r.contacts.getOrCreate(contactDraft(c1, '5511977776666', { name: 'Bia', email: 'bia@x.test' }));
        const rows = [
          { name: 'Ana', number: WITHOUT_NINE, email: 'ana@x.test' },
          { name: 'Beatriz', number: '5511977776666', email: 'other@x.test' },
          { name: 'Carla', number: '5531987654321', email: null },
          { name: '5541944443333', number: '5541944443333', email: null },
        ];
        expect(await r.tx.run(() => r.contacts.importBatch(c1, rows, at(3)))).to.deep.equal({ created: 2, merged: 2 });
        expect(await r.contacts.findById(c1, known.id)).to.deep.include({ name: 'Ana', email: 'ana@x.test', number: WITH_NINE });
        expect(await r.contacts.findById(c1, named.id)).to.deep.include({ name: 'Bia', email: 'bia@x.test' });
        const carla = (await r.contacts.findByNumber(c1, '553187654321'))!;
        expect(carla).to.deep.include({ name: 'Carla', email: null, blocked: false, acceptAudio: true, extraInfo: [] });
        expect(carla.createdAt.toISOString()).to.equal(at(3).toISOString());
        expect(await r.contacts.identifiersOf(c1, carla.id)).to.deep.equal([{ kind: 'phone', value: '5531987654321', pageId: null }]);
        expect(await r.tx.run(() => r.contacts.importBatch(c1, rows, at(4)))).to.deep.equal({ created: 0, merged: 4 });
        expect((await r.contacts.list({ companyId: c1, page: page() })).count).to.equal(4);
        expect(await r.contacts.importBatch(c2, rows.slice(0, 1), at(5))).to.deep.equal({ created: 1, merged: 0 });
        expect(await r.contacts.importBatch(c1, [], at(5))).to.deep.equal({ created: 0, merged: 0 });
      });
    });
  });
}
