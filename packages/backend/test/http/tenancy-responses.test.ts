import { expect } from 'chai';
import { asSuper, client, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

// Every company and plan route answers a body its response schema accepts (the test backend validates each answer).
describe('HTTP: tenancy answers fit their response schemas', () => {
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

  it('plans: create, list, show, update, delete', async () => {
    const { api } = await asSuper(b);
    const created = await api.post('/plans', {
      name: 'Profissional',
      users: 10,
      connections: 3,
      queues: 5,
      amount: '199,9',
      recurrence: 'TRIMESTRAL',
      trial: true,
      trialDays: 7,
      useOpenAi: false,
      useExternalApi: false,
    });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ name: 'Profissional', amount: '199.90', recurrence: 'TRIMESTRAL', useOpenAi: false, useKanban: true });
    const id = created.body.id as number;
    for (const path of ['/plans', '/plans?searchParam=prof', '/plans/all']) {
      const res = await api.get(path);
      expect(res.status, path).to.equal(200);
      expect(
        res.body.map((p: { id: number }) => p.id),
        path,
      ).to.include(id);
    }
    const publicPlans = await client(b.url).get('/plans/list');
    expect(publicPlans.status).to.equal(200);
    expect(publicPlans.body.map((p: { id: number }) => p.id)).to.include(id);
    expect((await api.get(`/plans/${id}`)).body).to.include({ id, trialDays: 7 });
    const updated = await api.put(`/plans/${id}`, { isPublic: false, amount: 250, useKanban: false });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ isPublic: false, amount: '250.00', useKanban: false });
    const deleted = await api.delete(`/plans/${id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ message: 'Plan deleted' });
  });

  it('companies: create, list, page, show, with plan, update, schedules, disk usage, delete', async () => {
    const { api } = await asSuper(b);
    const created = await api.post('/companies', {
      name: 'Acme Atendimento',
      email: 'contato@acme.test',
      planId: 1,
      password: 'admin-password-1',
      document: '11.222.333/0001-81',
      dueDate: '2025-02-28',
      paymentMethod: 'pix',
      adminName: 'João Lima',
    });
    expect(created.status).to.equal(201);
    expect(created.body.company).to.include({ name: 'Acme Atendimento', document: '11222333000181', dueDate: '2025-02-28', paymentMethod: 'pix' });
    expect(created.body.user).to.include({ name: 'João Lima', profile: 'admin' });
    const id = created.body.company.id as number;

    const all = await api.get('/companies/list');
    expect(all.status).to.equal(200);
    expect(all.body).to.have.length(2);
    const page = await api.get('/companies?searchParam=acme');
    expect(page.status).to.equal(200);
    expect(page.body).to.include({ count: 1, hasMore: false });
    expect((await api.get(`/companies/${id}`)).body).to.include({ id, status: true });
    const withPlan = await api.get(`/companies/listPlan/${id}`);
    expect(withPlan.status).to.equal(200);
    expect(withPlan.body.plan).to.include({ id: 1 });
    const allWithPlans = await api.get('/companiesPlan');
    expect(allWithPlans.status).to.equal(200);
    expect(allWithPlans.body.companies).to.have.length(2);
    expect(allWithPlans.body.hasMore).to.equal(false);

    const updated = await api.put(`/companies/${id}`, { phone: '+55 11 4000-1234', recurrence: 'ANUAL', email: null });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ phone: '+55 11 4000-1234', recurrence: 'ANUAL', email: null });
    const schedules = await api.put(`/companies/${id}/schedules`, {
      schedules: [
        { weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' },
        { weekday: 'Domingo', weekdayEn: 'sunday', startTime: '', endTime: '' },
      ],
    });
    expect(schedules.status).to.equal(200);
    expect(schedules.body.schedules).to.have.length(2);

    const usage = await api.get(`/companies/${id}/disk-usage`);
    expect(usage.status).to.equal(200);
    expect(usage.body).to.include({ companyId: id, totalBytes: usage.body.publicBytes + usage.body.privateBytes });

    const deleted = await api.delete(`/companies/${id}`);
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.deep.equal({ message: 'Company deleted' });
  });

  it('an admin reads their own company, with its plan and disk usage', async () => {
    const { api, company } = await newCompanyWithAdmin(b);
    expect((await api.get(`/companies/${company.id}`)).status).to.equal(200);
    expect((await api.get(`/companies/listPlan/${company.id}`)).body.plan).to.have.property('useKanban');
    expect((await api.get(`/companies/${company.id}/disk-usage`)).body.totalBytes).to.equal(0);
  });
});
