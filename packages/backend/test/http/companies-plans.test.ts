import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { asSuper, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

describe('HTTP: companies and plans', () => {
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

  it('a super user creates a company with its admin and manages it', async () => {
    const { api } = await asSuper(b);
    const res = await api.post('/companies', {
      name: 'Padaria Pão Quente',
      email: 'dono@padaria.test',
      planId: 1,
      password: 'padaria-pass',
      document: '11.222.333/0001-81',
    });
    expect(res.status).to.equal(201);
    expect(res.body.company).to.include({ name: 'Padaria Pão Quente', document: '11222333000181', status: true });
    expect(res.body.user).to.include({ email: 'dono@padaria.test', profile: 'admin' });
    const id = res.body.company.id;
    expect((await api.get(`/companies/${id}`)).body.name).to.equal('Padaria Pão Quente');
    expect((await api.get('/companies?searchParam=pao')).body.count).to.equal(1);
    const rows = (await api.get('/companies/list')).body;
    expect(rows).to.have.length(2);
    expect(rows.find((r: { id: number }) => r.id === id).plan.name).to.equal('Default');
    expect((await api.get(`/companies/listPlan/${id}`)).body.plan.name).to.equal('Default');
    const page = (await api.get('/companiesPlan?searchParam=&pageNumber=1')).body;
    expect(page).to.include({ count: 2, hasMore: false });
    expect(page.companies).to.have.length(2);
    expect(page.companies[0].plan.name).to.equal('Default');
    expect((await api.put(`/companies/${id}`, { name: 'Padaria Nova', dueDate: '2027-01-31' })).body).to.include({
      name: 'Padaria Nova',
      dueDate: '2027-01-31',
    });
    expect((await api.get(`/companies/${id}/disk-usage`)).body).to.include({ companyId: id, totalBytes: 0 });
    expect((await api.delete(`/companies/${id}`)).status).to.equal(200);
    expect((await api.get(`/companies/${id}`)).status).to.equal(404);
    expect((await client(b.url).post('/auth/login', { email: 'dono@padaria.test', password: 'padaria-pass' })).status).to.equal(401);
  });

  it('company creation is atomic: a taken admin e-mail leaves no company behind', async () => {
    const { api, user } = await asSuper(b);
    const res = await api.post('/companies', { name: 'Twice', email: user.email, planId: 1, password: 'twice-pass' });
    expect(res.status).to.equal(409);
    expect((await api.get('/companies/list')).body).to.have.length(1);
  });

  it('rejects bad company input with 4xx', async () => {
    const { api } = await asSuper(b);
    expect((await api.post('/companies', { name: 'NoPlan', password: 'long-enough' })).status).to.equal(422);
    expect((await api.post('/companies', { name: 'BadPlan', planId: 99, email: 'x@y.test', password: 'long-enough' })).status).to.equal(404);
    expect(
      (await api.post('/companies', { name: 'BadDoc', planId: 1, email: 'x@y.test', password: 'long-enough', document: '11.111.111/1111-11' })).status,
    ).to.equal(422);
    expect((await api.put('/companies/1', { status: 'yes' })).status).to.equal(422);
    expect((await api.put('/companies/1', { status: false })).status).to.equal(403);
    expect((await api.delete('/companies/1')).status).to.equal(422);
  });

  it('an admin sees only its own company, sets its hours, and cannot manage others', async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    expect((await a.api.get(`/companies/${a.company.id}`)).status).to.equal(200);
    expect((await a.api.get(`/companies/${other.company.id}`)).status).to.equal(404);
    expect((await a.api.get('/companies')).status).to.equal(403);
    expect((await a.api.get('/companies/list')).status).to.equal(403);
    expect((await a.api.post('/companies', { name: 'Mine', planId: 1, password: 'long-enough', email: 'm@m.test' })).status).to.equal(403);
    expect((await a.api.put(`/companies/${a.company.id}`, { planId: 1 })).status).to.equal(403);
    const hours = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }];
    const set = await a.api.put(`/companies/${a.company.id}/schedules`, { schedules: hours });
    expect(set.status).to.equal(200);
    // Read back as the lineage's hours editor shows a day: two ranges, A and B.
    expect(set.body.schedules).to.deep.equal([
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '18:00', startTimeB: '', endTimeB: '' },
    ]);
    const days = [{ weekday: 'Terça-feira', weekdayEn: 'tuesday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' }];
    expect((await a.api.put(`/companies/${a.company.id}/schedules`, { id: a.company.id, schedules: days })).body.schedules).to.deep.equal(days);
    expect((await a.api.put(`/companies/${a.company.id}/schedules`, { schedules: [{ ...hours[0], endTime: '07:00' }] })).status).to.equal(422);
    expect((await a.api.put(`/companies/${other.company.id}/schedules`, { schedules: hours })).status).to.equal(404);
  });

  it('plans: public list without a token, CRUD for super users, in-use plans cannot be deleted', async () => {
    const { api } = await asSuper(b);
    const created = await api.post('/plans', { name: 'Pro', users: 20, connections: 5, queues: 10, amount: '199.90', isPublic: false, useKanban: false });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ name: 'Pro', amount: '199.90', useKanban: false, useCampaigns: true });
    const publicPlans = await client(b.url).get('/plans/list');
    expect(publicPlans.status).to.equal(200);
    expect(publicPlans.body.map((p: { name: string }) => p.name)).to.deep.equal(['Default']);
    expect((await api.get('/plans/all')).body).to.have.length(2);
    expect((await api.get('/plans?searchParam=pro')).body).to.have.length(1);
    expect((await api.put(`/plans/${created.body.id}`, { users: 25 })).body.users).to.equal(25);
    expect((await api.post('/plans', { name: 'pro' })).status).to.equal(409);
    expect((await api.post('/plans', { name: 'Bad', users: -1 })).status).to.equal(422);
    expect((await api.delete('/plans/1')).status).to.equal(409);
    expect((await api.delete(`/plans/${created.body.id}`)).status).to.equal(200);
    expect((await api.get(`/plans/${created.body.id}`)).status).to.equal(404);
  });

  it('plans are read-only for company admins', async () => {
    const a = await newCompanyWithAdmin(b);
    expect((await a.api.get('/plans/1')).status).to.equal(200);
    expect((await a.api.post('/plans', { name: 'Mine' })).status).to.equal(403);
    expect((await a.api.put('/plans/1', { users: 1000 })).status).to.equal(403);
    expect((await a.api.delete('/plans/1')).status).to.equal(403);
  });

  it('super users follow the platform live: companies, plans and platform settings, whoever changed them; an admin beside them is not told', async () => {
    const { api, token, user } = await asSuper(b);
    const platform = user.companyId as number;
    expect(
      (await api.post('/users', { name: 'Local admin', email: 'local-admin@platform.test', password: 'local-admin-1', profile: 'admin' })).status,
    ).to.equal(201);
    const local = await login(b.url, 'local-admin@platform.test', 'local-admin-1');
    const supers = await openNamespace(b.url, platform, token);
    const admin = await openNamespace(b.url, platform, local.token);
    try {
      const created = await newCompanyWithAdmin(b);
      await supers.waitFor((f) => f.event === `company-${platform}-platform` && f.data.action === 'company' && f.data.companyId === created.company.id);
      expect(supers.of('platform')[0]!.data).to.deep.equal({ action: 'company', change: 'create', companyId: created.company.id });
      // A company's own admin changing its hours: the super users' list of companies shows them too.
      const hours = await created.api.put(`/companies/${created.company.id}/schedules`, {
        schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }],
      });
      expect(hours.status, JSON.stringify(hours.body)).to.equal(200);
      await supers.waitFor((f) => f.event === `company-${platform}-platform` && f.data.change === 'update' && f.data.companyId === created.company.id);
      const plan = await api.post('/plans', { name: 'Growth', users: 5, connections: 2, queues: 3, amount: '99.90' });
      expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
      await supers.waitFor(
        (f) => f.event === `company-${platform}-platform` && f.data.action === 'plan' && f.data.change === 'create' && f.data.planId === plan.body.id,
      );
      expect((await api.put('/setting/userCreation', { value: 'disabled' })).status).to.equal(200);
      await supers.waitFor((f) => f.event === `company-${platform}-platform` && f.data.action === 'setting' && f.data.key === 'userCreation');
      expect((await api.delete(`/companies/${created.company.id}`)).status).to.equal(200);
      await supers.waitFor((f) => f.event === `company-${platform}-platform` && f.data.change === 'delete' && f.data.companyId === created.company.id);
      // The admin of the same company received the frames sent after these (a later user change) but none of the platform's.
      const later = await api.post('/users', { name: 'Later', email: 'later@platform.test', password: 'later-pass-1', profile: 'user' });
      await admin.waitFor((f) => f.event === `company-${platform}-user` && f.data.action === 'create' && f.data.user?.id === later.body.id);
      expect(admin.of('platform')).to.deep.equal([]);
    } finally {
      supers.close();
      admin.close();
    }
  });
});
