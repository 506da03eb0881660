import { expect } from 'chai';
import type { Companies, Plans, Transaction } from '../../src/index.js';
import type { NewContactListImport } from '../../src/contact-lists/contact-list-import.js';
import type { NewContactListItem } from '../../src/contact-lists/contact-list.js';
import type { ContactListImports, ContactListItems, ContactLists, ImportedItem } from '../../src/contact-lists/ports.js';
import { twoCompanies } from './repositories-contract.js';

export interface ContactListsFixture {
  readonly contactLists: ContactLists;
  readonly contactListItems: ContactListItems;
  readonly contactListImports: ContactListImports;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly tx: Transaction;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const page = (offset = 0, limit = 20) => ({ offset, limit });
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

export function itemFixture(companyId: number, contactListId: number, number: string, overrides: Partial<NewContactListItem> = {}): NewContactListItem {
  return {
    companyId,
    contactListId,
    name: `N ${number}`,
    number,
    canonicalNumber: number,
    email: '',
    isGroup: false,
    validity: 'unknown',
    validatedAt: null,
    validationError: null,
    variables: {},
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

function importFixture(companyId: number, contactListId: number, overrides: Partial<NewContactListImport> = {}): NewContactListImport {
  return {
    companyId,
    contactListId,
    userId: null,
    status: 'pending',
    fileName: 'lista.csv',
    blobKey: 'private/x.json',
    total: 10,
    processed: 0,
    created: 0,
    duplicates: 0,
    invalid: 0,
    errors: [],
    error: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

const row = (number: string, overrides: Partial<ImportedItem> = {}): ImportedItem => ({
  name: `Row ${number}`,
  number,
  canonicalNumber: number,
  email: '',
  variables: {},
  ...overrides,
});

/** One suite for every adapter of the ContactLists, ContactListItems and ContactListImports ports. */
export function describeContactListsContract(name: string, make: () => Promise<ContactListsFixture>) {
  describe(`Contact lists contract: ${name}`, () => {
    let r: ContactListsFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
    }
    const list = (companyId: number, name: string) => r.contactLists.add({ companyId, name, createdAt: T0, updatedAt: at(1) });

    it('stores lists, finds, renames and removes them within their company only; pages and lists them by folded name', async () => {
      await given();
      const b = await list(c1, 'Órfãos');
      const a = await list(c1, 'antigos');
      const theirs = await list(c2, 'Antigos');
      expect({ ...(await r.contactLists.findById(c1, a.id)) }).to.deep.equal({ id: a.id, companyId: c1, name: 'antigos', createdAt: T0, updatedAt: at(1) });
      expect(await r.contactLists.findById(c2, a.id)).to.equal(null);
      await r.contactLists.update({ ...a, companyId: c2, name: 'Hijack', updatedAt: at(2) });
      expect((await r.contactLists.findById(c1, a.id))!.name).to.equal('antigos');
      await r.contactLists.update({ ...a, name: 'Antigos clientes', updatedAt: at(2) });
      expect((await r.contactLists.findById(c1, a.id))!).to.include({ name: 'Antigos clientes' });
      expect((await r.contactLists.findById(c1, a.id))!.updatedAt.toISOString()).to.equal(at(2).toISOString());
      expect((await r.contactLists.all(c1)).map((l) => l.id)).to.deep.equal([a.id, b.id]);
      const first = await r.contactLists.page({ companyId: c1, page: page(0, 1) });
      expect([first.rows.map((l) => l.id), first.count]).to.deep.equal([[a.id], 2]);
      expect((await r.contactLists.page({ companyId: c1, search: 'ORFAOS', page: page() })).rows.map((l) => l.id)).to.deep.equal([b.id]);
      expect((await r.contactLists.page({ companyId: c1, search: '50%_', page: page() })).count).to.equal(0);
      expect(await r.contactLists.remove(c2, a.id)).to.equal(false);
      expect(await r.contactLists.remove(c1, a.id)).to.equal(true);
      expect(await r.contactLists.remove(c1, a.id)).to.equal(false);
      expect((await r.contactLists.all(c2)).map((l) => l.id)).to.deep.equal([theirs.id]);
    });

    it('keeps one canonical number per list, counts items per verdict, and removes items with their list', async () => {
      await given();
      const l1 = await list(c1, 'Um');
      const l2 = await list(c1, 'Dois');
      const ana = await r.contactListItems.add(
        itemFixture(c1, l1.id, '5511988887777', { variables: { cidade: 'Santos', 'a b': 'x' }, validity: 'valid', validatedAt: at(3) }),
      );
      expect({ ...(await r.contactListItems.findById(c1, ana.id)) }).to.deep.equal({
        ...itemFixture(c1, l1.id, '5511988887777', { variables: { cidade: 'Santos', 'a b': 'x' }, validity: 'valid', validatedAt: at(3) }),
        id: ana.id,
      });
      expect(await r.contactListItems.findById(c2, ana.id)).to.equal(null);
      expect(await code(r.contactListItems.add(itemFixture(c1, l1.id, '551188887777', { canonicalNumber: '5511988887777' })))).to.equal(
        'ERR_CONTACT_LIST_ITEM_DUPLICATE',
      );
      await r.contactListItems.add(itemFixture(c1, l2.id, '5511988887777'));
      const bia = await r.contactListItems.add(itemFixture(c1, l1.id, '5511977776666', { validity: 'invalid' }));
      await r.contactListItems.add(itemFixture(c1, l1.id, '5511966665555', { validity: 'error', validationError: 'ERR_SESSION_NOT_CONNECTED' }));
      expect(await code(r.contactListItems.update({ ...bia, canonicalNumber: '5511988887777' }))).to.equal('ERR_CONTACT_LIST_ITEM_DUPLICATE');
      await r.contactListItems.update({
        ...bia,
        name: 'Bia',
        email: 'bia@mail.test',
        number: '5511955554444',
        canonicalNumber: '5511955554444',
        contactListId: l2.id,
        updatedAt: at(4),
      });
      expect((await r.contactListItems.findById(c1, bia.id))!).to.include({
        name: 'Bia',
        email: 'bia@mail.test',
        number: '5511955554444',
        contactListId: l1.id,
      });
      const counts = await r.contactLists.counts(c1, [l1.id, l2.id, 999_999]);
      expect(counts.get(l1.id)).to.deep.equal({ contactsCount: 3, validCount: 1, invalidCount: 1, unknownCount: 0, errorCount: 1 });
      expect(counts.get(l2.id)).to.deep.equal({ contactsCount: 1, validCount: 0, invalidCount: 0, unknownCount: 1, errorCount: 0 });
      expect((await r.contactLists.counts(c2, [l1.id])).size).to.equal(0);
      expect(await r.contactListItems.remove(c2, bia.id)).to.equal(false);
      expect(await r.contactListItems.remove(c1, bia.id)).to.equal(true);
      await r.contactLists.remove(c1, l1.id);
      expect(await r.contactListItems.findById(c1, ana.id)).to.equal(null);
      expect(await r.contactListItems.all(c1, l2.id)).to.have.length(1);
    });

    it('pages items by folded name within the company, of one list or all, found by name or by digits of the number', async () => {
      await given();
      const l1 = await list(c1, 'Um');
      const l2 = await list(c1, 'Dois');
      const theirs = await list(c2, 'Deles');
      await r.contactListItems.add(itemFixture(c1, l1.id, '5511988887777', { name: 'Zé' }));
      await r.contactListItems.add(itemFixture(c1, l1.id, '5511977776666', { name: 'álvaro' }));
      await r.contactListItems.add(itemFixture(c1, l2.id, '5521966665555', { name: 'Bruna' }));
      await r.contactListItems.add(itemFixture(c2, theirs.id, '5511944443333', { name: 'Alheio' }));
      const names = async (q: { contactListId?: number; search?: string; offset?: number; limit?: number }) =>
        (
          await r.contactListItems.page({
            companyId: c1,
            page: page(q.offset, q.limit),
            ...(q.contactListId ? { contactListId: q.contactListId } : {}),
            ...(q.search ? { search: q.search } : {}),
          })
        ).rows.map((i) => i.name);
      expect(await names({})).to.deep.equal(['álvaro', 'Bruna', 'Zé']);
      expect(await names({ contactListId: l1.id })).to.deep.equal(['álvaro', 'Zé']);
      expect(await names({ contactListId: theirs.id })).to.deep.equal([]);
      expect(await names({ search: 'ALV' })).to.deep.equal(['álvaro']);
      expect(await names({ search: '(21) 96666' })).to.deep.equal(['Bruna']);
      expect(await names({ search: '4444' })).to.deep.equal([]);
      expect(await names({ offset: 1, limit: 1 })).to.deep.equal(['Bruna']);
      expect((await r.contactListItems.page({ companyId: c1, page: page(0, 1) })).count).to.equal(3);
      expect((await r.contactListItems.all(c1, l1.id)).map((i) => i.name)).to.deep.equal(['álvaro', 'Zé']);
      expect(await r.contactListItems.all(c2, l1.id)).to.deep.equal([]);
    });

    it('imports a batch: new numbers are created, known ones merged (e-mail, a name that was the number, missing variables), verdicts kept', async () => {
      await given();
      const l1 = await list(c1, 'Um');
      const known = await r.contactListItems.add(
        itemFixture(c1, l1.id, '5511988887777', {
          name: '5511988887777',
          email: '',
          variables: { plano: 'prata' },
          validity: 'valid',
          validatedAt: at(1),
        }),
      );
      const named = await r.contactListItems.add(itemFixture(c1, l1.id, '5511977776666', { name: 'Bia', email: 'bia@old.test' }));
      const result = await r.tx.run(() =>
        r.contactListItems.importBatch(
          c1,
          l1.id,
          [
            row('5511988887777', { name: 'Ana', email: 'ana@mail.test', variables: { plano: 'ouro', cidade: 'Santos' } }),
            row('5511977776666', { name: 'Beatriz', email: 'bia@new.test', variables: { cidade: 'Campinas' } }),
            row('5521966665555', { name: 'Caio', email: 'caio@mail.test', variables: { "it's": 'quoted' } }),
          ],
          at(5),
        ),
      );
      expect(result).to.deep.equal({ created: 1, merged: 2 });
      expect((await r.contactListItems.findById(c1, known.id))!).to.deep.include({
        name: 'Ana',
        email: 'ana@mail.test',
        variables: { plano: 'prata', cidade: 'Santos' },
        validity: 'valid',
      });
      expect((await r.contactListItems.findById(c1, named.id))!).to.deep.include({ name: 'Bia', email: 'bia@old.test', variables: { cidade: 'Campinas' } });
      const caio = (await r.contactListItems.all(c1, l1.id)).find((i) => i.number === '5521966665555')!;
      expect(caio).to.deep.include({ companyId: c1, name: 'Caio', canonicalNumber: '5521966665555', validity: 'unknown', variables: { "it's": 'quoted' } });
      expect(caio.createdAt.toISOString()).to.equal(at(5).toISOString());
      expect(await r.contactListItems.importBatch(c1, l1.id, [], at(6))).to.deep.equal({ created: 0, merged: 0 });
    });

    it('finds what to check (unknown first, failed checks after a while) and writes outcomes only where the number is unchanged', async () => {
      await given();
      const l1 = await list(c1, 'Um');
      const l2 = await list(c2, 'Dois');
      const failedLong = await r.contactListItems.add(
        itemFixture(c1, l1.id, '5511900000001', { validity: 'error', validatedAt: at(0), validationError: 'ERR_SESSION_NOT_CONNECTED' }),
      );
      await r.contactListItems.add(itemFixture(c1, l1.id, '5511900000002', { validity: 'error', validatedAt: at(50) }));
      const fresh = await r.contactListItems.add(itemFixture(c1, l1.id, '5511900000003'));
      await r.contactListItems.add(itemFixture(c1, l1.id, '5511900000004', { validity: 'valid', validatedAt: at(0) }));
      const theirs = await r.contactListItems.add(itemFixture(c2, l2.id, '5511900000005'));
      const errorBefore = at(10);
      expect(await r.contactListItems.companiesToCheck(errorBefore, 10)).to.deep.equal([c1, c2]);
      expect(await r.contactListItems.companiesToCheck(errorBefore, 1)).to.deep.equal([c1]);
      expect((await r.contactListItems.toCheck(c1, errorBefore, 10)).map((i) => i.id)).to.deep.equal([fresh.id, failedLong.id]);
      expect((await r.contactListItems.toCheck(c1, errorBefore, 1)).map((i) => i.id)).to.deep.equal([fresh.id]);
      const saved = await r.tx.run(() =>
        r.contactListItems.saveChecks(
          c1,
          [
            { id: fresh.id, checked: fresh.number, validity: 'valid', number: '551100000003', validationError: null },
            { id: failedLong.id, checked: 'another number', validity: 'invalid', number: failedLong.number, validationError: null },
            { id: theirs.id, checked: theirs.number, validity: 'invalid', number: theirs.number, validationError: null },
          ],
          at(20),
        ),
      );
      expect(saved.map((i) => [i.id, i.validity, i.number])).to.deep.equal([[fresh.id, 'valid', '551100000003']]);
      expect((await r.contactListItems.findById(c1, fresh.id))!).to.deep.include({
        validity: 'valid',
        number: '551100000003',
        canonicalNumber: '5511900000003',
        validationError: null,
      });
      expect((await r.contactListItems.findById(c1, fresh.id))!.validatedAt!.toISOString()).to.equal(at(20).toISOString());
      expect((await r.contactListItems.findById(c1, failedLong.id))!.validity).to.equal('error');
      expect((await r.contactListItems.findById(c2, theirs.id))!.validity).to.equal('unknown');
      await r.contactListItems.saveChecks(
        c1,
        [{ id: failedLong.id, checked: failedLong.number, validity: 'error', number: failedLong.number, validationError: 'ERR_NUMBER_CHECK_FAILED' }],
        at(30),
      );
      expect(await r.contactListItems.toCheck(c1, errorBefore, 10)).to.deep.equal([]);
      expect(await r.contactListItems.companiesToCheck(errorBefore, 10)).to.deep.equal([c2]);
    });

    it("advances an import only from the count it was read at, keeps 1,000 row errors, ends it once and finds each list's latest", async () => {
      await given();
      const l1 = await list(c1, 'Um');
      const l2 = await list(c1, 'Dois');
      const first = await r.contactListImports.add(importFixture(c1, l1.id, { status: 'done', total: 1, processed: 1 }));
      const entry = await r.contactListImports.add(importFixture(c1, l1.id, { total: 1200 }));
      expect({ ...(await r.contactListImports.findById(c1, entry.id)) }).to.deep.equal({ ...importFixture(c1, l1.id, { total: 1200 }), id: entry.id });
      expect(await r.contactListImports.findById(c2, entry.id)).to.equal(null);
      const errors = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ row: from + i, reason: 'ERR_INVALID_NUMBER' }));
      const progress = { processed: 600, created: 500, duplicates: 40, invalid: 60 };
      expect(await r.contactListImports.advance(c1, entry.id, 0, { ...progress, errors: errors(2, 600) }, at(1))).to.equal(true);
      expect(await r.contactListImports.advance(c1, entry.id, 0, { ...progress, errors: [] }, at(1))).to.equal(false);
      expect(await r.contactListImports.advance(c2, entry.id, 600, { ...progress, errors: [] }, at(1))).to.equal(false);
      expect(await r.contactListImports.advance(c1, entry.id, 600, { ...progress, errors: errors(602, 600) }, at(2))).to.equal(true);
      const advanced = (await r.contactListImports.findById(c1, entry.id))!;
      expect(advanced).to.include({ status: 'running', processed: 1200, created: 1000, duplicates: 80, invalid: 120 });
      expect(advanced.errors).to.have.length(1000);
      expect(advanced.errors[999]).to.deep.equal({ row: 1001, reason: 'ERR_INVALID_NUMBER' });
      expect(advanced.updatedAt.toISOString()).to.equal(at(2).toISOString());
      expect(await r.contactListImports.finish(c2, entry.id, 'done', null, at(3))).to.equal(false);
      expect(await r.contactListImports.finish(c1, entry.id, 'failed', 'ERR_IMPORT_FAILED', at(3))).to.equal(true);
      expect(await r.contactListImports.finish(c1, entry.id, 'done', null, at(4))).to.equal(false);
      expect(await r.contactListImports.advance(c1, entry.id, 1200, { ...progress, errors: [] }, at(4))).to.equal(false);
      expect((await r.contactListImports.findById(c1, entry.id))!).to.include({ status: 'failed', error: 'ERR_IMPORT_FAILED', blobKey: null });
      const latest = await r.contactListImports.latest(c1, [l1.id, l2.id]);
      expect([...latest.keys()]).to.deep.equal([l1.id]);
      expect(latest.get(l1.id)!.id).to.equal(entry.id);
      expect(first.id).to.be.below(entry.id);
      expect((await r.contactListImports.latest(c2, [l1.id])).size).to.equal(0);
      await r.contactLists.remove(c1, l1.id);
      expect(await r.contactListImports.findById(c1, entry.id)).to.equal(null);
    });
  });
}
