import { expect } from 'chai';
import { ADMIN, asSuper, client, COMPANY_TOKEN, login, startTestBackend, type TestBackend } from '../support/test-backend.js';

describe('HTTP: company integration API', () => {
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

  const sql = (query: string, params: unknown[]) => b.infra.db.orm.em.fork().getConnection().execute(query, params);
  const newCompany = async (n: string) => {
    const res = await api.post('/api/companies', { name: `Company ${n}`, email: `owner@${n}.test`, planId: 1, password: 'owner-password' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.company.id as number;
  };

  it('every route answers 401 without the token, with a wrong one, and with a platform JWT', async () => {
    const routes = b.http.routes.filter((r) => r.path.startsWith('/api/') && r.auth === 'isAuthCompany');
    expect(routes).to.have.length(32);
    const { token } = await asSuper(b);
    for (const caller of [client(b.url), client(b.url, 'wrong-token'), client(b.url, token)]) {
      for (const r of routes) {
        const res = await caller.call(r.method, r.path.replace(/:(\w+)/g, '1'), r.method === 'POST' || r.method === 'PUT' ? {} : undefined);
        expect(res.status, `${r.method} ${r.path}`).to.equal(401);
        expect(res.body).to.deep.equal({ error: 'ERR_INVALID_COMPANY_TOKEN' });
      }
    }
  });

  it('manages plans: create, show, list, update, delete, then 404', async () => {
    const created = await api.post('/api/plans', { name: 'Pro', users: 5, connections: 2, queues: 3, amount: '199.9', useKanban: false });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ name: 'Pro', amount: '199.90', useKanban: false, useCampaigns: true });
    const id = created.body.id;
    expect((await api.get(`/api/plans/${id}`)).body.name).to.equal('Pro');
    expect((await api.get('/api/plans')).body.map((p: { name: string }) => p.name)).to.deep.equal(['Default', 'Pro']);
    expect((await api.put(`/api/plans/${id}`, { users: 50 })).body).to.include({ users: 50, name: 'Pro' });
    expect((await api.delete('/api/plans/1')).status).to.equal(409);
    expect((await api.delete(`/api/plans/${id}`)).body).to.deep.equal({ message: 'Plan deleted' });
    expect((await api.get(`/api/plans/${id}`)).status).to.equal(404);
  });

  it('creates a company with its admin, who can log in; lists, finds, updates and deletes companies', async () => {
    const res = await api.post('/api/companies', { name: 'Floricultura', email: 'Dona@Flor.test', planId: 1, password: 'flor-password' });
    expect(res.status).to.equal(201);
    expect(res.body.company).to.include({ name: 'Floricultura', email: 'dona@flor.test', planId: 1, status: true });
    expect(res.body.user).to.include({ email: 'dona@flor.test', profile: 'admin', companyId: res.body.company.id });
    expect(res.body.user).to.not.have.property('passwordHash');
    const id = res.body.company.id;
    expect((await login(b.url, 'dona@flor.test', 'flor-password')).user.companyId).to.equal(id);
    const list = await api.get('/api/companies');
    expect(list.body.count).to.equal(2);
    expect(list.body.companies.map((c: { name: string }) => c.name)).to.deep.equal(['Service Desk', 'Floricultura']);
    expect((await api.get(`/api/companies/${id}`)).body.name).to.equal('Floricultura');
    expect((await api.get('/api/companiesEmail/dona@flor.test')).body.id).to.equal(id);
    expect((await api.get('/api/companiesEmail/nobody@flor.test')).status).to.equal(404);
    expect((await api.put(`/api/companies/${id}`, { name: 'Floricultura Ipê', dueDate: '2027-01-31' })).body).to.include({
      name: 'Floricultura Ipê',
      dueDate: '2027-01-31',
    });
    const hours = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }];
    // Answered as the lineage's hours editor reads them: one entry a day, ranges A and B.
    expect((await api.put(`/api/companies/${id}/schedules`, { schedules: hours })).body.schedules).to.deep.equal([
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '18:00', startTimeB: '', endTimeB: '' },
    ]);
    expect((await api.delete(`/api/companies/${id}`)).body).to.deep.equal({ message: 'Company deleted' });
    expect((await api.get(`/api/companies/${id}`)).status).to.equal(404);
    expect((await client(b.url).post('/auth/login', { email: 'dona@flor.test', password: 'flor-password' })).status).to.equal(401);
  });

  it('refuses to delete the company that holds the super users', async () => {
    const api = client(b.url, COMPANY_TOKEN);
    const res = await api.delete('/api/companies/1');
    expect(res.status).to.equal(422);
    expect(res.body).to.deep.equal({ error: 'ERR_CANNOT_DELETE_PLATFORM_COMPANY' });
    expect((await login(b.url, ADMIN.email, ADMIN.password)).token).to.be.a('string');
  });

  it('manages helps', async () => {
    const created = await api.post('/api/helps', { title: 'Primeiros passos', description: 'Comece aqui', video: 'abc123' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ title: 'Primeiros passos', description: 'Comece aqui', video: 'abc123', link: null });
    const id = created.body.id;
    expect((await api.get(`/api/helps/${id}`)).body.title).to.equal('Primeiros passos');
    expect((await api.get('/api/helps?searchParam=PASSOS')).body).to.deep.include({ count: 1, hasMore: false });
    expect((await api.put(`/api/helps/${id}`, { link: 'https://help.test/1', video: null })).body).to.include({ link: 'https://help.test/1', video: null });
    expect((await api.delete(`/api/helps/${id}`)).body).to.deep.equal({ message: 'Help deleted' });
    expect((await api.get(`/api/helps/${id}`)).body).to.deep.equal({ error: 'ERR_NO_HELP_FOUND' });
  });

  it('manages partners', async () => {
    const created = await api.post('/api/partners', { name: 'Revenda Sul', email: 'sul@rev.test', commission: 12.5, walletId: 'w-1' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ name: 'Revenda Sul', commission: '12.50', typeCommission: 'percent', walletId: 'w-1' });
    const id = created.body.id;
    expect((await api.get(`/api/partners/${id}`)).body.email).to.equal('sul@rev.test');
    expect((await api.get('/api/partners')).body.partners).to.have.length(1);
    expect((await api.put(`/api/partners/${id}`, { typeCommission: 'fixed', commission: '150' })).body).to.include({
      commission: '150.00',
      typeCommission: 'fixed',
    });
    expect((await api.put(`/api/partners/${id}`, { typeCommission: 'percent' })).body).to.deep.equal({ error: 'ERR_INVALID_PARTNER_COMMISSION' });
    expect((await api.delete(`/api/partners/${id}`)).body).to.deep.equal({ message: 'Partner deleted' });
    expect((await api.get(`/api/partners/${id}`)).body).to.deep.equal({ error: 'ERR_NO_PARTNER_FOUND' });
  });

  it('manages invoices of any company', async () => {
    const other = await newCompany('other');
    const created = await api.post('/api/invoices', { companyId: 1, detail: 'Março', value: '99.9', dueDate: '2026-04-10' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ companyId: 1, detail: 'Março', status: 'open', value: '99.90', dueDate: '2026-04-10', paidAt: null });
    const id = created.body.id;
    await api.post('/api/invoices', { companyId: other, detail: 'Other', value: 10, dueDate: '2026-04-10' });
    expect((await api.get(`/api/invoices/${id}`)).body.detail).to.equal('Março');
    expect((await api.get('/api/invoices')).body.count).to.equal(2);
    expect((await api.get(`/api/invoices?companyId=${other}`)).body.invoices.map((i: { detail: string }) => i.detail)).to.deep.equal(['Other']);
    expect((await api.get('/api/invoicesCompany/1')).body.invoices.map((i: { id: number }) => i.id)).to.deep.equal([id]);
    const paid = await api.put(`/api/invoices/${id}`, { status: 'paid', value: 89.9 });
    expect(paid.body).to.include({ status: 'paid', value: '89.90' });
    expect(paid.body.paidAt).to.be.a('string');
    expect((await api.delete(`/api/invoices/${id}`)).body).to.deep.equal({ message: 'Invoice deleted' });
    expect((await api.get(`/api/invoices/${id}`)).body).to.deep.equal({ error: 'ERR_NO_INVOICE_FOUND' });
  });

  it('finds users by e-mail', async () => {
    const found = await api.get(`/api/users/${ADMIN.email.toUpperCase()}`);
    expect(found.status).to.equal(200);
    expect(found.body).to.include({ email: ADMIN.email, profile: 'admin', super: true, companyId: 1 });
    expect(found.body).to.not.have.property('passwordHash');
    expect((await api.get('/api/users/ghost@example.com')).body).to.deep.equal({ error: 'ERR_NO_USER_FOUND' });
  });

  it('lists and counts contacts and counts messages in a date range', async () => {
    const other = await newCompany('other');
    const at = '2026-03-01T10:00:00Z';
    await sql(
      'insert into contacts (company_id, name, number, email, created_at, updated_at) values (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?), (?, ?, ?, ?, ?, ?)',
      [1, 'Ana', '5511999990001', 'ana@x.test', at, at, 1, 'Bruno', '5511999990002', null, at, at, other, 'Carla', '5521999990003', null, at, at],
    );
    // A message belongs to a ticket of a contact on a connection: one of each per company.
    for (const companyId of [1, other]) {
      await sql("insert into connections (company_id, name, kind, provider, created_at, updated_at) values (?, 'Main', 'chatapp', 'sandbox', ?, ?)", [
        companyId,
        at,
        at,
      ]);
    }
    await sql(
      `insert into tickets (uuid, company_id, contact_id, connection_id, created_at, updated_at)
      select gen_random_uuid(), c.company_id, min(c.id), (select max(n.id) from connections n where n.company_id = c.company_id), ?, ?
      from contacts c where c.company_id in (?, ?) group by c.company_id`,
      [at, at, 1, other],
    );
    for (const [companyId, createdAt] of [
      [1, '2026-03-01T00:00:00Z'],
      [1, '2026-03-31T23:59:59Z'],
      [1, '2026-04-01T00:00:00Z'],
      [other, '2026-03-15T12:00:00Z'],
    ]) {
      await sql(
        `insert into messages (id, company_id, ticket_id, contact_id, connection_id, body, created_at, updated_at)
        select gen_random_uuid(), t.company_id, t.id, t.contact_id, t.connection_id, 'oi', ?, ? from tickets t where t.company_id = ? order by t.id desc limit 1`,
        [createdAt, createdAt, companyId],
      );
    }
    const all = await api.get('/api/contacts');
    expect(all.body).to.deep.include({ count: 3, hasMore: false });
    expect(all.body.contacts[0]).to.include({ name: 'Ana', number: '5511999990001', email: 'ana@x.test', companyId: 1 });
    expect((await api.get(`/api/contacts?companyId=${other}`)).body.contacts.map((c: { name: string }) => c.name)).to.deep.equal(['Carla']);
    expect((await api.get('/api/contacts?searchParam=bruno&pageNumber=1')).body.count).to.equal(1);
    expect((await api.get('/api/contacts?pageNumber=2')).body.contacts).to.deep.equal([]);
    expect((await api.get('/api/contacts-count')).body).to.deep.equal({ count: 3 });
    expect((await api.get('/api/contacts-count?companyId=1')).body).to.deep.equal({ count: 2 });
    expect((await api.get('/api/messagesRange?dateFrom=2026-03-01&dateTo=2026-03-31')).body).to.deep.equal({
      count: 3,
      dateFrom: '2026-03-01T00:00:00.000Z',
      dateTo: '2026-03-31T23:59:59.999Z',
    });
    expect((await api.get('/api/messagesRange?companyId=1&dateFrom=2026-03-01&dateTo=2026-04-01T00:00:00Z')).body.count).to.equal(3);
    expect((await api.get(`/api/messagesRange?companyId=${other}&dateFrom=2026-03-01&dateTo=2026-03-31`)).body.count).to.equal(1);
  });

  it('answers 4xx with an error body to bad input and writes nothing', async () => {
    const cases: Array<[string, string, unknown, number]> = [
      ['POST', '/api/plans', {}, 422],
      ['POST', '/api/plans', { name: 'X', users: 'many' }, 422],
      ['POST', '/api/plans', '{"name": ', 400],
      ['POST', '/api/companies', { name: 'NoPlan', password: 'long-enough' }, 422],
      ['POST', '/api/companies', { name: 'Taken', email: ADMIN.email, planId: 1, password: 'long-enough' }, 409],
      ['POST', '/api/companies', { name: 'BadPlan', email: 'x@y.test', planId: 99, password: 'long-enough' }, 404],
      ['POST', '/api/helps', { description: 'no title' }, 422],
      ['POST', '/api/helps', '{oops', 400],
      ['POST', '/api/partners', { name: 'P', commission: -1 }, 422],
      ['POST', '/api/partners', { name: 'Over', commission: '150' }, 422],
      ['POST', '/api/invoices', { companyId: 1, detail: 'x', value: 'abc', dueDate: '2026-04-10' }, 422],
      ['POST', '/api/invoices', { companyId: 1, detail: 'x', value: '10', dueDate: '2026-02-30' }, 422],
      ['POST', '/api/invoices', { companyId: 999, detail: 'x', value: '10', dueDate: '2026-04-10' }, 404],
      ['POST', '/api/invoices', { companyId: 1, detail: 'x', value: '10', dueDate: '2026-04-10', status: 'lost' }, 422],
      ['PUT', '/api/plans/999', { users: 1 }, 404],
      ['PUT', '/api/helps/999', { title: 'x' }, 404],
      ['PUT', '/api/partners/999', { name: 'xx' }, 404],
      ['PUT', '/api/invoices/999', { detail: 'x' }, 404],
      ['PUT', '/api/companies/999', { name: 'xx' }, 404],
      ['DELETE', '/api/companies/999', undefined, 404],
      ['DELETE', '/api/helps/999', undefined, 404],
      ['DELETE', '/api/invoices/999', undefined, 404],
      ['GET', '/api/plans/abc', undefined, 422],
      ['GET', '/api/users/not-an-email', undefined, 422],
      ['GET', '/api/messagesRange?dateFrom=2026-03-31&dateTo=2026-03-01', undefined, 422],
      ['GET', '/api/messagesRange?dateFrom=2026-03-01', undefined, 422],
      ['GET', '/api/messagesRange?dateFrom=yesterday&dateTo=2026-03-01', undefined, 422],
      ['GET', '/api/contacts-count?companyId=-1', undefined, 422],
    ];
    for (const [method, url, body, status] of cases) {
      const res = await api.call(method, url, body);
      expect(res.status, `${method} ${url} ${JSON.stringify(body)}`).to.equal(status);
      expect(res.body, `${method} ${url}`).to.have.property('error').that.is.a('string');
    }
    expect((await api.get('/api/messagesRange?dateFrom=2026-03-31&dateTo=2026-03-01')).body).to.deep.equal({ error: 'ERR_INVALID_DATE_RANGE' });
    expect((await api.get('/api/plans')).body).to.have.length(1);
    expect((await api.get('/api/companies')).body.count).to.equal(1);
    for (const list of ['helps', 'partners', 'invoices']) expect((await api.get(`/api/${list}`)).body.count, list).to.equal(0);
    expect((await client(b.url).post('/auth/login', { email: 'x@y.test', password: 'long-enough' })).status).to.equal(401);
  });
});
