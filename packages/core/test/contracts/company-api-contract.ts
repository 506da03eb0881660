import { expect } from 'chai';
import type { Companies, Helps, Transaction, Invoices, NewHelp, NewInvoice, NewPartner, Partners, Plans, PlatformActivity } from '../../src/index.js';
import { companyFixture, planFixture } from './repositories-contract.js';

export interface CompanyApiFixture {
  readonly helps: Helps;
  readonly partners: Partners;
  readonly invoices: Invoices;
  readonly activity: PlatformActivity;
  readonly plans: Plans;
  readonly companies: Companies;
  readonly tx: Transaction;
  /** Whether a failed transaction leaves nothing behind (true for databases). */
  readonly rollsBack: boolean;
  /** Rows of tables the conversation features own, written the way each adapter can. */
  addContact(c: { companyId: number; name: string; number: string; email?: string | null; createdAt: Date }): Promise<number>;
  addMessage(m: { companyId: number; contactId?: number | null; createdAt: Date }): Promise<void>;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const page = (offset = 0, limit = 20) => ({ offset, limit });

const help = (title: string, o: Partial<NewHelp> = {}): NewHelp => ({ title, description: '', video: null, link: null, createdAt: T0, updatedAt: T0, ...o });
const partner = (name: string, o: Partial<NewPartner> = {}): NewPartner => ({
  name,
  email: null,
  phone: null,
  document: null,
  commission: '10.00',
  typeCommission: 'percent',
  walletId: null,
  createdAt: T0,
  updatedAt: T0,
  ...o,
});
const invoice = (companyId: number, detail: string, o: Partial<NewInvoice> = {}): NewInvoice => ({
  companyId,
  detail,
  status: 'open',
  value: '99.90',
  dueDate: '2026-04-10',
  paidAt: null,
  createdAt: T0,
  updatedAt: T0,
  ...o,
});

/** One suite for every adapter of the company integration API's ports. */
export function describeCompanyApiContract(name: string, make: () => Promise<CompanyApiFixture>) {
  describe(`Company API contract: ${name}`, () => {
    let r: CompanyApiFixture;
    beforeEach(async () => {
      r = await make();
    });

    async function newCompany(label: string): Promise<number> {
      const plan = await r.plans.add(planFixture(`Plan ${label}`));
      return (await r.companies.add(companyFixture(plan.id, label))).id;
    }

    it('stores helps, lists them by title, searches without accents and pages them', async () => {
      const video = await r.helps.add(help('Vídeo de boas-vindas', { description: 'Comece aqui', video: 'abc123', link: 'https://x.test/a' }));
      await r.helps.add(help('Atendimento'));
      await r.helps.add(help('Conexões'));
      expect(video.id).to.be.a('number');
      const got = await r.helps.findById(video.id);
      expect(got).to.include({ title: 'Vídeo de boas-vindas', description: 'Comece aqui', video: 'abc123', link: 'https://x.test/a' });
      expect(got!.createdAt.toISOString()).to.equal(T0.toISOString());
      expect((await r.helps.list({ page: page() })).rows.map((h) => h.title)).to.deep.equal(['Atendimento', 'Conexões', 'Vídeo de boas-vindas']);
      expect((await r.helps.list({ search: 'VIDEO', page: page() })).rows.map((h) => h.id)).to.deep.equal([video.id]);
      expect((await r.helps.list({ search: 'comece', page: page() })).rows.map((h) => h.id)).to.deep.equal([video.id]);
      const second = await r.helps.list({ page: page(1, 1) });
      expect(second).to.deep.include({ count: 3 });
      expect(second.rows.map((h) => h.title)).to.deep.equal(['Conexões']);
      expect(await r.helps.findById(999_999)).to.equal(null);
    });

    it('updates and removes helps', async () => {
      const h = await r.helps.add(help('Old'));
      const at = new Date('2026-03-02T00:00:00.000Z');
      await r.helps.update({ ...h, title: 'New', video: 'v', link: null, description: 'd', updatedAt: at });
      const again = await r.helps.findById(h.id);
      expect(again).to.include({ title: 'New', video: 'v', link: null, description: 'd' });
      expect(again!.updatedAt.toISOString()).to.equal(at.toISOString());
      await r.helps.remove(h.id);
      expect(await r.helps.findById(h.id)).to.equal(null);
    });

    it('stores partners with exact decimal commissions, lists and searches them', async () => {
      const p = await r.partners.add(partner('Érica Revenda', { email: 'erica@rev.test', commission: '12.50', walletId: 'w-1', document: '11222333000181' }));
      await r.partners.add(partner('Bruno', { typeCommission: 'fixed', commission: '150.00' }));
      const got = await r.partners.findById(p.id);
      expect(got).to.include({ name: 'Érica Revenda', commission: '12.50', typeCommission: 'percent', walletId: 'w-1', email: 'erica@rev.test' });
      expect((await r.partners.list({ page: page() })).rows.map((x) => x.name)).to.deep.equal(['Bruno', 'Érica Revenda']);
      expect((await r.partners.list({ search: 'erica', page: page() })).rows.map((x) => x.id)).to.deep.equal([p.id]);
      expect((await r.partners.list({ search: '11222333', page: page() })).count).to.equal(1);
      await r.partners.update({ ...p, commission: '7.00', typeCommission: 'fixed', walletId: null });
      expect(await r.partners.findById(p.id)).to.include({ commission: '7.00', typeCommission: 'fixed', walletId: null });
      await r.partners.remove(p.id);
      expect(await r.partners.findById(p.id)).to.equal(null);
    });

    it('keeps invoices inside their company: reads and deletes by id filter by tenant', async () => {
      const c1 = await newCompany('One');
      const c2 = await newCompany('Two');
      const i1 = await r.invoices.add(invoice(c1, 'March'));
      const i2 = await r.invoices.add(invoice(c1, 'April', { value: '120.00', dueDate: '2026-05-10' }));
      const other = await r.invoices.add(invoice(c2, 'Other'));
      const got = await r.invoices.findById(c1, i1.id);
      expect(got).to.include({ companyId: c1, detail: 'March', status: 'open', value: '99.90', dueDate: '2026-04-10', paidAt: null });
      expect(await r.invoices.findById(c2, i1.id)).to.equal(null);
      expect((await r.invoices.findById(null, other.id))?.companyId).to.equal(c2);
      expect((await r.invoices.list({ companyId: c1, page: page() })).rows.map((i) => i.id)).to.deep.equal([i2.id, i1.id]);
      expect((await r.invoices.list({ companyId: null, page: page() })).count).to.equal(3);
      expect((await r.invoices.list({ companyId: c1, search: 'apr', page: page() })).rows.map((i) => i.id)).to.deep.equal([i2.id]);
      await r.invoices.remove(c2, i1.id);
      expect(await r.invoices.findById(null, i1.id)).to.not.equal(null);
      await r.invoices.remove(c1, i1.id);
      expect(await r.invoices.findById(null, i1.id)).to.equal(null);
    });

    it('updates an invoice status, value, due date and payment time', async () => {
      const c = await newCompany('C');
      const i = await r.invoices.add(invoice(c, 'March'));
      const paidAt = new Date('2026-04-09T15:30:00.000Z');
      await r.invoices.update({ ...i, status: 'paid', paidAt, value: '80.05', dueDate: '2026-04-15', detail: 'March (discount)' });
      const again = await r.invoices.findById(c, i.id);
      expect(again).to.include({ status: 'paid', value: '80.05', dueDate: '2026-04-15', detail: 'March (discount)' });
      expect(again!.paidAt!.toISOString()).to.equal(paidAt.toISOString());
    });

    it('removing a company removes its invoices, contacts and messages', async () => {
      const c1 = await newCompany('Gone');
      const c2 = await newCompany('Stays');
      const gone = await r.invoices.add(invoice(c1, 'Gone'));
      const stays = await r.invoices.add(invoice(c2, 'Stays'));
      const contact = await r.addContact({ companyId: c1, name: 'Ana', number: '5511999990001', createdAt: T0 });
      await r.addMessage({ companyId: c1, contactId: contact, createdAt: T0 });
      await r.addContact({ companyId: c2, name: 'Bia', number: '5511999990002', createdAt: T0 });
      await r.companies.remove(c1);
      expect(await r.invoices.findById(null, gone.id)).to.equal(null);
      expect(await r.invoices.findById(null, stays.id)).to.not.equal(null);
      expect(await r.activity.countContacts()).to.equal(1);
      expect(await r.activity.countMessages({ from: new Date(0), to: new Date('2100-01-01') })).to.equal(0);
    });

    it('lists contacts of every company or one, by name, searchable by name, number or e-mail', async () => {
      const c1 = await newCompany('One');
      const c2 = await newCompany('Two');
      const ana = await r.addContact({ companyId: c1, name: 'Ána', number: '5511999990001', email: 'ana@x.test', createdAt: T0 });
      await r.addContact({ companyId: c1, name: 'Carlos', number: '5511999990002', createdAt: T0 });
      await r.addContact({ companyId: c2, name: 'Bia', number: '5521988880003', createdAt: T0 });
      const all = await r.activity.listContacts({ page: page() });
      expect(all.count).to.equal(3);
      expect(all.rows.map((c) => c.name)).to.deep.equal(['Ána', 'Bia', 'Carlos']);
      expect(all.rows[0]).to.deep.include({ id: ana, companyId: c1, number: '5511999990001', email: 'ana@x.test' });
      expect(all.rows[0]!.createdAt.toISOString()).to.equal(T0.toISOString());
      expect(all.rows[2]!.email).to.equal(null);
      expect((await r.activity.listContacts({ companyId: c1, page: page() })).rows.map((c) => c.name)).to.deep.equal(['Ána', 'Carlos']);
      expect((await r.activity.listContacts({ search: 'ana', page: page() })).rows.map((c) => c.id)).to.deep.equal([ana]);
      expect((await r.activity.listContacts({ search: '5521', page: page() })).rows.map((c) => c.name)).to.deep.equal(['Bia']);
      expect((await r.activity.listContacts({ search: 'x.test', page: page() })).count).to.equal(1);
      const second = await r.activity.listContacts({ companyId: c1, page: page(1, 1) });
      expect(second.count).to.equal(2);
      expect(second.rows.map((c) => c.name)).to.deep.equal(['Carlos']);
      expect(await r.activity.countContacts()).to.equal(3);
      expect(await r.activity.countContacts(c2)).to.equal(1);
      expect(await r.activity.countContacts(999_999)).to.equal(0);
    });

    it('counts messages in a range, both ends included, for every company or one', async () => {
      const c1 = await newCompany('One');
      const c2 = await newCompany('Two');
      const contact = await r.addContact({ companyId: c1, name: 'Ana', number: '1', createdAt: T0 });
      const at = (iso: string) => new Date(iso);
      await r.addMessage({ companyId: c1, contactId: contact, createdAt: at('2026-03-01T00:00:00.000Z') });
      await r.addMessage({ companyId: c1, createdAt: at('2026-03-15T12:00:00.000Z') });
      await r.addMessage({ companyId: c1, createdAt: at('2026-03-31T23:59:59.999Z') });
      await r.addMessage({ companyId: c1, createdAt: at('2026-04-01T00:00:00.000Z') });
      await r.addMessage({ companyId: c2, createdAt: at('2026-03-10T00:00:00.000Z') });
      const march = { from: at('2026-03-01T00:00:00.000Z'), to: at('2026-03-31T23:59:59.999Z') };
      expect(await r.activity.countMessages(march)).to.equal(4);
      expect(await r.activity.countMessages({ ...march, companyId: c1 })).to.equal(3);
      expect(await r.activity.countMessages({ ...march, companyId: c2 })).to.equal(1);
      expect(await r.activity.countMessages({ from: at('2026-04-02T00:00:00Z'), to: at('2026-05-01T00:00:00Z') })).to.equal(0);
    });

    it('reads and writes inside a transaction see each other and roll back together', async () => {
      const c = await newCompany('C');
      await r.tx
        .run(async () => {
          await r.invoices.add(invoice(c, 'Half'));
          await r.addContact({ companyId: c, name: 'Ana', number: '1', createdAt: T0 });
          await r.addMessage({ companyId: c, createdAt: T0 });
          expect((await r.invoices.list({ companyId: c, page: page() })).count).to.equal(1);
          expect(await r.activity.countContacts(c)).to.equal(1);
          expect(await r.activity.countMessages({ companyId: c, from: T0, to: T0 })).to.equal(1);
          throw new Error('boom');
        })
        .catch(() => undefined);
      if (!r.rollsBack) return;
      expect((await r.invoices.list({ companyId: c, page: page() })).count).to.equal(0);
      expect(await r.activity.countContacts(c)).to.equal(0);
      expect(await r.activity.countMessages({ companyId: c, from: T0, to: T0 })).to.equal(0);
    });
  });
}
