import { expect } from 'chai';
import { ADMIN, asSuper, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

function upload(field: string, data: Buffer, name = 'a.png', type = 'image/png') {
  const form = new FormData();
  form.append(field, new Blob([data], { type }), name);
  return form;
}

describe('HTTP: users', () => {
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

  it('an admin creates, lists, shows, updates and deletes users of their company', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const created = await api.post('/users', { name: 'Operator One', email: 'op1@x.test', password: 'operator-pass' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ name: 'Operator One', profile: 'user' });
    const list = await api.get('/users?searchParam=operator');
    expect(list.body.count).to.equal(1);
    expect(list.body.users[0].email).to.equal('op1@x.test');
    expect(list.body.hasMore).to.equal(false);
    expect((await api.get(`/users/${created.body.id}`)).body.email).to.equal('op1@x.test');
    const updated = await api.put(`/users/${created.body.id}`, { name: 'Operator Uno', profile: 'admin' });
    expect(updated.body).to.include({ name: 'Operator Uno', profile: 'admin' });
    expect((await api.get('/users/list')).body.map((u: { name: string }) => u.name)).to.include('Operator Uno');
    expect((await api.delete(`/users/${created.body.id}`)).status).to.equal(200);
    expect((await api.get(`/users/${created.body.id}`)).status).to.equal(404);
  });

  it("keeps tenants apart: another company's user answers 404 everywhere", async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    const listA = await a.api.get('/users');
    expect(listA.body.users.map((u: { companyId: number }) => u.companyId)).to.deep.equal([a.company.id]);
    expect((await a.api.get(`/users/${other.admin.id}`)).status).to.equal(404);
    expect((await a.api.put(`/users/${other.admin.id}`, { name: 'Hijack' })).status).to.equal(404);
    expect((await a.api.delete(`/users/${other.admin.id}`)).status).to.equal(404);
    // companyId in a body is ignored for non-super users: the token decides.
    const sneaky = await a.api.post('/users', { name: 'Sneaky', email: 'sneaky@x.test', password: 'sneaky-pass', companyId: other.company.id });
    expect(sneaky.body.companyId).to.equal(a.company.id);
  });

  it('nobody raises their own profile or grants more than they hold', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const op = await api.post('/users', { name: 'Plain Op', email: 'plain@x.test', password: 'plain-pass-1' });
    const opApi = client(b.url, (await login(b.url, 'plain@x.test', 'plain-pass-1')).token);
    const raise = await opApi.put(`/users/${op.body.id}`, { profile: 'admin' });
    expect(raise.status).to.equal(403);
    expect((await api.post('/users', { name: 'Wannabe', email: 'w@x.test', password: 'wannabe-pass', profile: 'super' })).status).to.equal(403);
    expect((await opApi.post('/users', { name: 'New', email: 'n@x.test', password: 'new-pass-12' })).status).to.equal(403);
    expect((await opApi.get('/users')).status).to.equal(403);
    // A user may still edit their own name and password.
    expect((await opApi.put(`/users/${op.body.id}`, { name: 'Plain Operator' })).status).to.equal(200);
  });

  it('enforces the plan user limit with 403', async () => {
    const { api: sup } = await asSuper(b);
    const plan = await sup.post('/plans', { name: 'Tiny', users: 2, connections: 1, queues: 1, amount: 10 });
    expect(plan.status).to.equal(201);
    const c = await newCompanyWithAdmin(b, { planId: plan.body.id });
    expect((await c.api.post('/users', { name: 'Second', email: 'second@x.test', password: 'second-pass' })).status).to.equal(201);
    const third = await c.api.post('/users', { name: 'Third', email: 'third@x.test', password: 'third-pass1' });
    expect(third.status).to.equal(403);
    expect(third.body).to.deep.equal({ error: 'ERR_USER_CREATION_COUNT' });
  });

  it('answers bad input with 4xx and writes nothing', async () => {
    const { api } = await newCompanyWithAdmin(b);
    expect((await api.post('/users', { name: 'X' })).status).to.equal(422);
    expect((await api.post('/users', { name: 'Valid', email: 'not-an-email', password: 'long-enough' })).status).to.equal(422);
    expect((await api.post('/users', { name: 'Valid', email: 'v@x.test', password: 'short' })).status).to.equal(422);
    expect((await api.post('/users', { name: 123, email: 'v@x.test', password: 'long-enough' })).status).to.equal(422);
    expect((await api.post('/users', '{"name":')).status).to.equal(400);
    expect((await api.post('/users', 'x'.repeat(2 * 1024 * 1024))).status).to.equal(413);
    expect((await api.post('/users', { name: 'Dup', email: ADMIN.email, password: 'long-enough' })).status).to.equal(409);
    expect((await api.get('/users/abc')).status).to.equal(422);
    expect((await api.get('/users')).body.count).to.equal(1);
  });

  it('stores a profile picture checked by its bytes and size', async () => {
    const { api, admin } = await newCompanyWithAdmin(b);
    const ok = await api.post(`/users/${admin.id}/media-upload`, upload('profileImage', PNG));
    expect(ok.status).to.equal(200);
    // A file name, served where the lineage's client builds its URL: /public/company<id>/user/<name>.
    expect(ok.body.user.profileImage).to.match(/^\d+-[\w-]+\.png$/);
    const key = `public/company${admin.companyId}/user/${ok.body.user.profileImage}`;
    expect((await fetch(`${b.url}/${key}`)).status).to.equal(200);
    expect((await b.infra.blobs.get(key))?.data.equals(PNG)).to.equal(true);
    const fake = await api.post(`/users/${admin.id}/media-upload`, upload('profileImage', Buffer.from('<script>alert(1)</script>'), 'x.png'));
    expect(fake.status).to.equal(422);
    expect(fake.body).to.deep.equal({ error: 'ERR_FILE_TYPE_NOT_ALLOWED' });
    const big = await api.post(`/users/${admin.id}/media-upload`, upload('profileImage', Buffer.concat([PNG, Buffer.alloc(3 * 1024 * 1024)])));
    expect(big.status).to.equal(413);
    expect((await api.post(`/users/${admin.id}/media-upload`, { not: 'multipart' })).status).to.equal(415);
  });

  it('toggles or sets the ticket list width', async () => {
    const { api, admin } = await newCompanyWithAdmin(b);
    expect((await api.put(`/users/toggleChangeWidht/${admin.id}`, {})).body.defaultTicketsManagerWidth).to.equal(400);
    expect((await api.put(`/users/toggleChangeWidht/${admin.id}`, {})).body.defaultTicketsManagerWidth).to.equal(550);
    expect((await api.put(`/users/toggleChangeWidht/${admin.id}`, { defaultTicketsManagerWidth: 700 })).body.defaultTicketsManagerWidth).to.equal(700);
    expect((await api.put(`/users/toggleChangeWidht/${admin.id}`, { defaultTicketsManagerWidth: 5 })).status).to.equal(422);
  });

  it('an admin cannot delete themself', async () => {
    const { api, admin } = await newCompanyWithAdmin(b);
    expect((await api.delete(`/users/${admin.id}`)).status).to.equal(403);
  });
});

describe('HTTP: first access with the default admin password', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ ADMIN_PASSWORD: '' });
  });
  after(async () => {
    await b.close();
  });

  it('logs in, is told to change the password, is blocked elsewhere until it does', async () => {
    const res = await client(b.url).post('/auth/login', { email: ADMIN.email, password: '123456' });
    expect(res.status).to.equal(200);
    expect(res.body.mustChangePassword).to.equal(true);
    const api = client(b.url, res.body.token);
    for (const path of ['/users', '/companies', '/settings', '/auth/me']) {
      const blocked = await api.get(path);
      expect(blocked.status, path).to.equal(403);
      expect(blocked.body).to.deep.equal({ error: 'ERR_PASSWORD_CHANGE_REQUIRED' });
    }
    // Only a new password for oneself is accepted on PUT /users/:id.
    expect((await api.put(`/users/${res.body.user.id}`, { name: 'Renamed' })).status).to.equal(403);
    expect((await api.put(`/users/${res.body.user.id}`, { password: 'short' })).status).to.equal(422);
    const changed = await api.put(`/users/${res.body.user.id}`, { password: 'a-much-better-password' });
    expect(changed.status).to.equal(200);
    expect(changed.body.mustChangePassword).to.equal(false);
    // A new password ends every session, this one included: log in again with it.
    expect((await api.get('/users')).status).to.equal(401);
    expect((await client(b.url).post('/auth/login', { email: ADMIN.email, password: '123456' })).status).to.equal(401);
    const again = await client(b.url).post('/auth/login', { email: ADMIN.email, password: 'a-much-better-password' });
    expect(again.status).to.equal(200);
    expect((await client(b.url, again.body.token).get('/users')).status).to.equal(200);
  });
});
