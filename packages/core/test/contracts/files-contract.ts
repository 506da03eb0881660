import { expect } from 'chai';
import type { Companies, Plans } from '../../src/index.js';
import type { FileLists } from '../../src/files/ports.js';
import type { NewFileOption } from '../../src/files/file-list.js';
import { twoCompanies } from './repositories-contract.js';

export interface FilesFixture {
  readonly fileLists: FileLists;
  readonly companies: Companies;
  readonly plans: Plans;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const T1 = new Date('2026-03-02T10:00:00.000Z');

export function fileOptionFixture(
  companyId: number,
  fileListId: number,
  name: string,
  position: number,
  overrides: Partial<NewFileOption> = {},
): NewFileOption {
  return { companyId, fileListId, name, position, fileName: null, mediaType: null, blobKey: null, size: null, createdAt: T0, updatedAt: T0, ...overrides };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

/** One suite for every adapter of the FileLists port. */
export function describeFilesContract(name: string, make: () => Promise<FilesFixture>) {
  describe(`File lists repository contract: ${name}`, () => {
    let r: FilesFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
    }
    const list = (companyId: number, name: string, message = '') => r.fileLists.add({ companyId, name, message, createdAt: T0, updatedAt: T0 });

    it('stores a list and its options as given and finds them only within their company', async () => {
      await given();
      const added = await list(c1, 'Catálogo', 'Segue o catálogo\ncom preços');
      expect(plain(await r.fileLists.findById(c1, added.id))).to.deep.equal(added);
      expect(await r.fileLists.findById(c2, added.id)).to.equal(null);
      const option = await r.fileLists.addOption(
        fileOptionFixture(c1, added.id, 'Preços', 0, {
          fileName: 'tabela.pdf',
          mediaType: 'application/pdf',
          blobKey: `company-${c1}/file-lists/${added.id}/x-tabela.pdf`,
          size: 16 * 1024 * 1024,
        }),
      );
      expect((await r.fileLists.options(c1, [added.id])).map(plain)).to.deep.equal([option]);
      expect(await r.fileLists.options(c2, [added.id])).to.deep.equal([]);
      expect(await r.fileLists.remove(c2, added.id)).to.equal(false);
      expect(await r.fileLists.findById(c1, added.id)).to.not.equal(null);
    });

    it('keeps a name unique per company (409 ERR_FILE_LIST_NAME_IN_USE on add and update), not across companies', async () => {
      await given();
      await list(c1, 'Catálogo');
      const other = await list(c1, 'Outro');
      expect(await code(list(c1, 'Catálogo'))).to.equal('ERR_FILE_LIST_NAME_IN_USE');
      expect(await code(r.fileLists.update({ ...other, name: 'Catálogo' }))).to.equal('ERR_FILE_LIST_NAME_IN_USE');
      expect(await code(list(c2, 'Catálogo'))).to.equal('resolved');
    });

    it('updates name, message and updatedAt, and touches updatedAt alone, only within the company', async () => {
      await given();
      const a = await list(c1, 'A', 'x');
      await r.fileLists.update({ ...a, companyId: c2, name: 'Roubado' });
      expect((await r.fileLists.findById(c1, a.id))!.name).to.equal('A');
      await r.fileLists.update({ ...a, name: 'B', message: 'y', updatedAt: T1 });
      expect(plain(await r.fileLists.findById(c1, a.id))).to.deep.equal({ ...a, name: 'B', message: 'y', updatedAt: T1 });
      const T2 = new Date('2026-03-03T10:00:00.000Z');
      expect(await r.fileLists.touch(c2, a.id, T2)).to.equal(false);
      expect(await r.fileLists.touch(c1, a.id, T2)).to.equal(true);
      expect(plain(await r.fileLists.findById(c1, a.id))).to.deep.equal({ ...a, name: 'B', message: 'y', updatedAt: T2 });
      expect(await r.fileLists.touch(c1, 2_000_000_000, T2)).to.equal(false);
    });

    it("lists a company's lists by name (accents and case folded), searched and paged", async () => {
      await given();
      for (const n of ['Vendas', 'átalogo', 'Suporte', 'Beta']) await list(c1, n);
      await list(c2, 'Other');
      const all = await r.fileLists.page({ companyId: c1, page: { offset: 0, limit: 20 } });
      expect(all.rows.map((l) => l.name)).to.deep.equal(['átalogo', 'Beta', 'Suporte', 'Vendas']);
      expect(all.count).to.equal(4);
      const page = await r.fileLists.page({ companyId: c1, page: { offset: 1, limit: 2 } });
      expect([page.rows.map((l) => l.name), page.count]).to.deep.equal([['Beta', 'Suporte'], 4]);
      expect((await r.fileLists.page({ companyId: c1, search: 'ATAL', page: { offset: 0, limit: 20 } })).rows.map((l) => l.name)).to.deep.equal(['átalogo']);
      expect((await r.fileLists.all(c1)).map((l) => l.name)).to.deep.equal(['átalogo', 'Beta', 'Suporte', 'Vendas']);
      expect((await r.fileLists.all(c1, 'port')).map((l) => l.name)).to.deep.equal(['Suporte']);
    });

    it('orders options by list, position and id; updates and removes them within the company; removing a list removes its options', async () => {
      await given();
      const a = await list(c1, 'A');
      const b = await list(c1, 'B');
      const a2 = await r.fileLists.addOption(fileOptionFixture(c1, a.id, 'segundo', 1));
      const a1 = await r.fileLists.addOption(fileOptionFixture(c1, a.id, 'primeiro', 0));
      const b1 = await r.fileLists.addOption(fileOptionFixture(c1, b.id, 'outro', 0));
      expect((await r.fileLists.options(c1, [b.id, a.id])).map((o) => o.name)).to.deep.equal(
        a.id < b.id ? ['primeiro', 'segundo', 'outro'] : ['outro', 'primeiro', 'segundo'],
      );
      await r.fileLists.updateOption({ ...a2, companyId: c2, name: 'roubado' });
      await r.fileLists.updateOption({
        ...a1,
        fileListId: b.id,
        name: 'Primeiro',
        position: 2,
        fileName: 'a.png',
        mediaType: 'image/png',
        blobKey: 'k',
        size: 3,
        updatedAt: T1,
      });
      const moved = (await r.fileLists.options(c1, [a.id])).find((x) => x.id === a1.id) ?? null;
      expect(plain(moved)).to.deep.equal({
        ...a1,
        name: 'Primeiro',
        position: 2,
        fileName: 'a.png',
        mediaType: 'image/png',
        blobKey: 'k',
        size: 3,
        updatedAt: T1,
      });
      expect((await r.fileLists.options(c1, [a.id])).map((o) => o.name)).to.deep.equal(['segundo', 'Primeiro']);
      await r.fileLists.removeOptions(c2, [a2.id]);
      await r.fileLists.removeOptions(c1, [a2.id]);
      expect((await r.fileLists.options(c1, [a.id])).map((o) => o.id)).to.deep.equal([a1.id]);
      expect(await r.fileLists.remove(c1, a.id)).to.equal(true);
      expect(await r.fileLists.options(c1, [a.id])).to.deep.equal([]);
      expect((await r.fileLists.options(c1, [b.id])).map((o) => o.id)).to.deep.equal([b1.id]);
      expect(await r.fileLists.options(c1, [])).to.deep.equal([]);
    });
  });
}
