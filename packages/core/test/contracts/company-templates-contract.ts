import { expect } from 'chai';
import type { Companies, Plans, Users } from '../../src/index.js';
import type { NewCompanyTemplate } from '../../src/company-templates/company-template.js';
import type { CompanyTemplates } from '../../src/company-templates/ports.js';
import { twoCompanies, userFixture } from './repositories-contract.js';

export interface CompanyTemplatesFixture {
  readonly companyTemplates: CompanyTemplates;
  readonly users: Users;
  readonly companies: Companies;
  readonly plans: Plans;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const T1 = new Date('2026-03-02T10:00:00.000Z');

export function templateFixture(companyId: number, shortcut: string, overrides: Partial<NewCompanyTemplate> = {}): NewCompanyTemplate {
  return {
    companyId,
    shortcut,
    message: `Mensagem ${shortcut}`,
    category: null,
    global: true,
    userId: null,
    mediaKey: null,
    mediaName: null,
    mediaType: null,
    mediaSize: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
const PAGE = { offset: 0, limit: 20 };

/** One suite for every adapter of the CompanyTemplates port. */
export function describeCompanyTemplatesContract(name: string, make: () => Promise<CompanyTemplatesFixture>) {
  describe(`Company templates repository contract: ${name}`, () => {
    let r: CompanyTemplatesFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies and a user of the first. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
      return (await r.users.add(userFixture(c1, 'ana@one.test'))).id;
    }

    it('stores a template as given and finds it only within its company', async () => {
      const ana = await given();
      const added = await r.companyTemplates.add(
        templateFixture(c1, 'boas-vindas', {
          message: 'Olá {{firstName}},\nsegue a tabela.',
          category: 'Vendas',
          global: false,
          userId: ana,
          mediaKey: `public/company-${c1}/templates/x-tabela.pdf`,
          mediaName: 'tabela de preços.pdf',
          mediaType: 'application/pdf',
          mediaSize: 16 * 1024 * 1024,
        }),
      );
      expect(plain(await r.companyTemplates.findById(c1, added.id))).to.deep.equal(added);
      expect(await r.companyTemplates.findById(c2, added.id)).to.equal(null);
      expect(await r.companyTemplates.touch(c2, added.id, T1)).to.equal(false);
      expect(await r.companyTemplates.remove(c2, added.id)).to.equal(false);
      expect(await r.companyTemplates.findById(c1, added.id)).to.not.equal(null);
      expect(await r.companyTemplates.remove(c1, added.id)).to.equal(true);
      expect(await r.companyTemplates.findById(c1, added.id)).to.equal(null);
      expect(await r.companyTemplates.remove(c1, added.id)).to.equal(false);
    });

    it('keeps a shortcut unique per company (ERR_TEMPLATE_SHORTCUT_IN_USE on add and update), not across companies', async () => {
      await given();
      await r.companyTemplates.add(templateFixture(c1, 'ola'));
      const other = await r.companyTemplates.add(templateFixture(c1, 'oi'));
      expect(await code(r.companyTemplates.add(templateFixture(c1, 'ola', { global: false })))).to.equal('ERR_TEMPLATE_SHORTCUT_IN_USE');
      expect(await code(r.companyTemplates.update({ ...other, shortcut: 'ola' }))).to.equal('ERR_TEMPLATE_SHORTCUT_IN_USE');
      expect(await code(r.companyTemplates.add(templateFixture(c2, 'ola')))).to.equal('resolved');
    });

    it('updates every field but the company and createdAt; touch sets updatedAt alone', async () => {
      const ana = await given();
      const t = await r.companyTemplates.add(templateFixture(c1, 'ola'));
      const next = {
        ...t,
        shortcut: 'ola-2',
        message: 'Novo',
        category: 'Suporte',
        global: false,
        userId: ana,
        mediaKey: 'public/k',
        mediaName: 'a.png',
        mediaType: 'image/png',
        mediaSize: 10,
        updatedAt: T1,
      };
      await r.companyTemplates.update({ ...next, companyId: c2 });
      expect(plain(await r.companyTemplates.findById(c1, t.id))).to.deep.equal(t);
      await r.companyTemplates.update({ ...next, createdAt: T1 });
      expect(plain(await r.companyTemplates.findById(c1, t.id))).to.deep.equal(next);
      const later = new Date('2026-03-03T10:00:00.000Z');
      expect(await r.companyTemplates.touch(c1, t.id, later)).to.equal(true);
      expect(plain(await r.companyTemplates.findById(c1, t.id))).to.deep.equal({ ...next, updatedAt: later });
    });

    it('pages by shortcut in code-point order, then id; a reader sees the global ones and their own; search folds case and accents', async () => {
      const ana = await given();
      const bia = (await r.users.add(userFixture(c1, 'bia@one.test'))).id;
      const mine = await r.companyTemplates.add(templateFixture(c1, 'b_2', { global: false, userId: ana, message: 'Promoção de VERÃO' }));
      const global = await r.companyTemplates.add(templateFixture(c1, 'b-1', { message: 'Horário de atendimento' }));
      const theirs = await r.companyTemplates.add(templateFixture(c1, 'a9', { global: false, userId: bia }));
      const digits = await r.companyTemplates.add(templateFixture(c1, '10', { message: 'promocao relâmpago' }));
      await r.companyTemplates.add(templateFixture(c2, 'a1'));
      const ids = async (q: { readerId?: number; search?: string; page?: { offset: number; limit: number } }) => {
        const found = await r.companyTemplates.page({ companyId: c1, page: PAGE, ...q });
        return { ids: found.rows.map((t) => t.id), count: found.count };
      };
      expect(await ids({})).to.deep.equal({ ids: [digits.id, theirs.id, global.id, mine.id], count: 4 });
      expect(await ids({ readerId: ana })).to.deep.equal({ ids: [digits.id, global.id, mine.id], count: 3 });
      expect(await ids({ readerId: bia, page: { offset: 1, limit: 1 } })).to.deep.equal({ ids: [theirs.id], count: 3 });
      expect(await ids({ search: 'PROMOÇÃO' })).to.deep.equal({ ids: [digits.id, mine.id], count: 2 });
      expect(await ids({ search: 'promo', readerId: bia })).to.deep.equal({ ids: [digits.id], count: 1 });
      expect(await ids({ search: 'b-' })).to.deep.equal({ ids: [global.id], count: 1 });
      expect(await ids({ search: '100%' })).to.deep.equal({ ids: [], count: 0 });
    });
  });
}
