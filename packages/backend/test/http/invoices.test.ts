import { expect } from 'chai';
import { asSuper, client, COMPANY_TOKEN, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

describe('HTTP: invoices (isAuth)', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  async function bill(companyId: number, detail: string) {
    const res = await client(b.url, COMPANY_TOKEN).post('/api/invoices', { companyId, detail, value: '49.90', dueDate: '2026-05-10' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as number;
  }

  it('a company user sees only its own company invoices; another company invoice answers 404', async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    const mine = await bill(a.company.id, 'A: May');
    const older = await bill(a.company.id, 'A: April');
    const theirs = await bill(other.company.id, 'B: May');
    const list = await a.api.get('/invoices');
    expect(list.status).to.equal(200);
    expect(list.body).to.deep.include({ count: 2, hasMore: false });
    expect(list.body.invoices.map((i: { id: number }) => i.id)).to.deep.equal([older, mine]);
    // A non-super user cannot widen the filter to another company.
    expect((await a.api.get(`/invoices?companyId=${other.company.id}`)).body.count).to.equal(2);
    expect((await a.api.get(`/invoices/${mine}`)).body).to.include({ id: mine, companyId: a.company.id, value: '49.90' });
    const foreign = await a.api.get(`/invoices/${theirs}`);
    expect(foreign.status).to.equal(404);
    expect(foreign.body).to.deep.equal({ error: 'ERR_NO_INVOICE_FOUND' });
    expect((await other.api.get(`/invoices/${mine}`)).status).to.equal(404);
    expect((await a.api.get('/invoices/999')).status).to.equal(404);
  });

  it('only super users change invoices; others get 403 and nothing changes', async () => {
    const a = await newCompanyWithAdmin(b);
    const id = await bill(a.company.id, 'A: May');
    const refused = await a.api.put(`/invoices/${id}`, { status: 'paid' });
    expect(refused.status).to.equal(403);
    expect(refused.body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    expect((await a.api.get(`/invoices/${id}`)).body).to.include({ status: 'open', paidAt: null });

    const { api } = await asSuper(b);
    const paid = await api.put(`/invoices/${id}`, { status: 'paid', value: '39.9', dueDate: '2026-05-15', detail: 'A: May (discount)' });
    expect(paid.status).to.equal(200);
    expect(paid.body).to.include({ status: 'paid', value: '39.90', dueDate: '2026-05-15', detail: 'A: May (discount)' });
    expect(Date.parse(paid.body.paidAt)).to.be.a('number').and.not.NaN;
    expect((await a.api.get(`/invoices/${id}`)).body).to.include({ status: 'paid', paidAt: paid.body.paidAt });
    expect((await api.put(`/invoices/${id}`, { status: 'open' })).body).to.include({ status: 'open', paidAt: null });
    expect((await api.put(`/invoices/${id}`, { status: 'gone' })).status).to.equal(422);
    expect((await api.put(`/invoices/${id}`, { value: '-3' })).body).to.deep.equal({ error: 'ERR_INVALID_INVOICE_VALUE' });
    expect((await api.put(`/invoices/${id}`, '{"status":')).status).to.equal(400);
    expect((await api.put('/invoices/999', { status: 'paid' })).status).to.equal(404);
  });

  it('super users see every company invoices, or one company with companyId', async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    await bill(a.company.id, 'A');
    const theirs = await bill(other.company.id, 'B');
    const { api } = await asSuper(b);
    expect((await api.get('/invoices')).body.count).to.equal(2);
    expect((await api.get(`/invoices?companyId=${other.company.id}`)).body.invoices.map((i: { id: number }) => i.id)).to.deep.equal([theirs]);
    expect((await api.get(`/invoices/${theirs}`)).body.companyId).to.equal(other.company.id);
  });

  it('invoices go away with their company', async () => {
    const a = await newCompanyWithAdmin(b);
    const id = await bill(a.company.id, 'A');
    const { api } = await asSuper(b);
    expect((await api.delete(`/companies/${a.company.id}`)).status).to.equal(200);
    expect((await api.get(`/invoices/${id}`)).status).to.equal(404);
    expect((await api.get('/invoices')).body.count).to.equal(0);
  });

  it('requires a platform token', async () => {
    expect((await client(b.url).get('/invoices')).status).to.equal(401);
    expect((await client(b.url, COMPANY_TOKEN).get('/invoices/1')).status).to.equal(401);
    expect((await client(b.url).put('/invoices/1', { status: 'paid' })).status).to.equal(401);
  });
});
