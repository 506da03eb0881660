import { expect } from 'chai';
import { client, COMPANY_TOKEN, startTestBackend, type TestBackend } from '../support/test-backend.js';

/**
 * The answers of the company integration API in the shapes the basic suite leaves out (every
 * optional field set, or cleared), checked against the routes' response schemas by the test backend.
 */
describe('HTTP: company integration API, response shapes', () => {
  let b: TestBackend;
  let api: ReturnType<typeof client>;
  before(async () => {
    b = await startTestBackend();
    api = client(b.url, COMPANY_TOKEN);
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('answers helps with every optional field set, then cleared', async () => {
    const full = await api.post('/api/helps', { title: 'Conectar', description: 'Leia o **QR**', video: 'https://v.test/1', link: 'https://docs.test/qr' });
    expect(full.status, JSON.stringify(full.body)).to.equal(201);
    const cleared = await api.put(`/api/helps/${full.body.id}`, { description: null, video: '', link: null });
    expect(cleared.status, JSON.stringify(cleared.body)).to.equal(200);
    expect(cleared.body).to.include({ description: '', video: null, link: null });
    const page = await api.get('/api/helps');
    expect(page.status, JSON.stringify(page.body)).to.equal(200);
    expect(page.body).to.deep.include({ count: 1, hasMore: false });
  });

  it('answers partners with a document, a phone and a fixed commission', async () => {
    const created = await api.post('/api/partners', {
      name: 'Revenda Norte',
      email: 'Norte@Rev.test',
      phone: '+55 92 3000-0000',
      document: '11.222.333/0001-81',
      commission: '250,5',
      typeCommission: 'fixed',
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ email: 'norte@rev.test', document: '11222333000181', commission: '250.50', typeCommission: 'fixed', walletId: null });
    const cpf = await api.put(`/api/partners/${created.body.id}`, { document: '123.456.789-09', email: null, phone: null });
    expect(cpf.status, JSON.stringify(cpf.body)).to.equal(200);
    expect(cpf.body).to.include({ document: '12345678909', email: null, phone: null });
  });

  it('answers an invoice created paid, and one cancelled', async () => {
    const paid = await api.post('/api/invoices', { companyId: 1, detail: 'Abril', value: 0, dueDate: '2026-04-30T10:00:00Z', status: 'paid' });
    expect(paid.status, JSON.stringify(paid.body)).to.equal(201);
    expect(paid.body).to.include({ value: '0.00', dueDate: '2026-04-30', status: 'paid' });
    expect(paid.body.paidAt).to.be.a('string');
    const cancelled = await api.put(`/api/invoices/${paid.body.id}`, { status: 'cancelled' });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(cancelled.body).to.include({ status: 'cancelled', paidAt: null });
    const page = await api.get('/api/invoicesCompany/999999');
    expect(page.status, JSON.stringify(page.body)).to.equal(200);
    expect(page.body).to.deep.equal({ invoices: [], count: 0, hasMore: false });
  });

  it('describes every route of the integration API with a response schema and a description', async () => {
    const routes = b.http.routes.filter(
      (r) =>
        (r.path.startsWith('/api/') && r.auth === 'isAuthCompany') ||
        r.path.startsWith('/invoices') ||
        /^\/(tags|tag|ticket-tags|tags-contacts)(\/|$)/.test(r.path) ||
        r.path === '/ticket/kanban',
    );
    expect(routes).to.have.length(47);
    for (const r of routes) {
      expect(r.response, `${r.method} ${r.path}`).to.not.equal(undefined);
      expect(r.description, `${r.method} ${r.path}`).to.be.a('string').and.not.equal('');
    }
  });
});
