import { expect } from 'chai';
import { ADMIN, asSuper, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

function refreshCookie(setCookie: string): string {
  const match = /jrt=([^;]*)/.exec(setCookie);
  if (!match) throw new Error(`no jrt cookie in: ${setCookie}`);
  return `jrt=${match[1]}`;
}

const refresh = (b: TestBackend, cookie: string) => client(b.url).post('/auth/refresh_token', undefined, { cookie });

describe('HTTP: sessions hardening', () => {
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

  it('20 parallel logins for one e-mail check at most 5 passwords; the rest answer 429, and then so does the right one', async () => {
    const c = await newCompanyWithAdmin(b);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) => client(b.url).post('/auth/login', { email: c.admin.email, password: `wrong-${i}` })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 401).length).to.be.at.most(5);
    expect(statuses.filter((s) => s === 429).length).to.be.at.least(15);
    const right = await client(b.url).post('/auth/login', { email: c.admin.email, password: 'admin-password-1' });
    expect(right.status).to.equal(429);
    expect(Number(right.headers.get('retry-after'))).to.be.greaterThan(0);
  });

  it("changing one's own password ends the earlier access token and refresh cookie at once", async () => {
    const c = await newCompanyWithAdmin(b);
    const s = await login(b.url, c.admin.email, 'admin-password-1');
    expect((await client(b.url, s.token).put(`/users/${c.admin.id}`, { password: 'a-brand-new-password' })).status).to.equal(200);
    expect((await client(b.url, s.token).get('/auth/me')).status).to.equal(401);
    expect((await client(b.url, c.token).get('/auth/me')).status).to.equal(401);
    const old = await refresh(b, refreshCookie(s.cookie));
    expect(old.status).to.equal(401);
    expect((await client(b.url).post('/auth/login', { email: c.admin.email, password: 'a-brand-new-password' })).status).to.equal(200);
  });

  it("a password set by an admin ends that user's sessions, not the admin's", async () => {
    const c = await newCompanyWithAdmin(b);
    const created = await c.api.post('/users', { name: 'Operator', email: 'op@sessions.test', password: 'operator-pass-1', profile: 'user' });
    expect(created.status).to.equal(201);
    const op = await login(b.url, 'op@sessions.test', 'operator-pass-1');
    expect((await c.api.put(`/users/${op.user.id}`, { password: 'set-by-the-admin' })).status).to.equal(200);
    expect((await client(b.url, op.token).get('/auth/me')).status).to.equal(401);
    expect((await refresh(b, refreshCookie(op.cookie))).status).to.equal(401);
    expect((await c.api.get('/auth/me')).status).to.equal(200);
  });

  it("deactivating a company makes its admin's old token 401 (no more contacts created with it) and its cookie dead", async () => {
    const c = await newCompanyWithAdmin(b);
    const s = await login(b.url, c.admin.email, 'admin-password-1');
    const { api } = await asSuper(b);
    expect((await api.put(`/companies/${c.company.id}`, { status: false })).status).to.equal(200);
    expect((await c.api.get('/auth/me')).status).to.equal(401);
    expect((await c.api.post('/contacts', { name: 'After', number: '5511988887777' })).status).to.equal(401);
    expect((await refresh(b, refreshCookie(s.cookie))).status).to.equal(401);
    expect((await api.put(`/companies/${c.company.id}`, { status: true })).status).to.equal(200);
    expect((await c.api.get('/auth/me')).status).to.equal(401);
    expect((await api.get('/auth/me')).status).to.equal(200);
  });

  it('two simultaneous refreshes with the same cookie both get the same new pair, and the family lives on', async () => {
    const s = await login(b.url, ADMIN.email, ADMIN.password);
    const cookie = refreshCookie(s.cookie);
    const [one, two] = await Promise.all([refresh(b, cookie), refresh(b, cookie)]);
    expect([one.status, two.status]).to.deep.equal([200, 200]);
    expect(two.body.token).to.equal(one.body.token);
    const next = refreshCookie(one.headers.get('set-cookie') ?? '');
    expect(refreshCookie(two.headers.get('set-cookie') ?? '')).to.equal(next);
    expect((await client(b.url, one.body.token).get('/auth/me')).status).to.equal(200);
    const later = await refresh(b, next);
    expect(later.status).to.equal(200);
    expect((await client(b.url, later.body.token).get('/auth/me')).status).to.equal(200);
  });

  it('a replay past the grace (the token was rotated twice since) still revokes every session', async () => {
    const s = await login(b.url, ADMIN.email, ADMIN.password);
    const first = refreshCookie(s.cookie);
    const second = await refresh(b, first);
    const third = await refresh(b, refreshCookie(second.headers.get('set-cookie') ?? ''));
    expect(third.status).to.equal(200);
    const replay = await refresh(b, first);
    expect(replay.status).to.equal(401);
    expect(replay.body).to.deep.equal({ error: 'ERR_REFRESH_TOKEN_REUSED' });
    expect((await refresh(b, refreshCookie(third.headers.get('set-cookie') ?? ''))).status).to.equal(401);
    expect((await client(b.url, third.body.token).get('/auth/me')).status).to.equal(401);
  });

  it("a company user gets 404 for another company's private plan and lists only public plans and its own", async () => {
    const { api } = await asSuper(b);
    const secret = await api.post('/plans', { name: 'Secret deal', isPublic: false });
    const mine = await api.post('/plans', { name: 'My deal', isPublic: false });
    expect([secret.status, mine.status]).to.deep.equal([201, 201]);
    const c = await newCompanyWithAdmin(b, { planId: mine.body.id });
    expect((await c.api.get(`/plans/${secret.body.id}`)).status).to.equal(404);
    expect((await c.api.get(`/plans/${mine.body.id}`)).status).to.equal(200);
    expect((await c.api.get('/plans/1')).status).to.equal(200);
    for (const path of ['/plans/all', '/plans']) {
      const names = (await c.api.get(path)).body.map((p: { name: string }) => p.name);
      expect(names, path).to.deep.equal(['Default', 'My deal']);
    }
    expect((await api.get('/plans/all')).body.map((p: { name: string }) => p.name)).to.deep.equal(['Default', 'Secret deal', 'My deal']);
    expect((await api.get(`/plans/${secret.body.id}`)).status).to.equal(200);
  });
});
