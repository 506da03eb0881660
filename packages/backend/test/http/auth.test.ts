import { expect } from 'chai';
import { ADMIN, asSuper, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

function refreshCookie(setCookie: string): string {
  const match = /jrt=([^;]*)/.exec(setCookie);
  if (!match) throw new Error(`no jrt cookie in: ${setCookie}`);
  return `jrt=${match[1]}`;
}

describe('HTTP: auth', () => {
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

  it('logs in with the right password and sets an httpOnly SameSite=Lax refresh cookie', async () => {
    const res = await client(b.url).post('/auth/login', { email: ADMIN.email, password: ADMIN.password });
    expect(res.status).to.equal(200);
    expect(res.body.token).to.be.a('string');
    // The seeded super user: `admin` on the wire, with `super: true` (the lineage's client knows only `admin` and `user`).
    expect(res.body.user).to.include({ email: ADMIN.email, profile: 'admin', super: true, mustChangePassword: false });
    expect(res.body.user.company).to.include({ id: res.body.user.companyId });
    expect(res.body.user.queues).to.deep.equal([]);
    expect(res.body.user).to.not.have.property('passwordHash');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie)
      .to.match(/jrt=/)
      .and.to.match(/httponly/i)
      .and.to.match(/samesite=lax/i);
  });

  it('refuses a wrong password with 401 and an unknown e-mail the same way', async () => {
    const wrong = await client(b.url).post('/auth/login', { email: ADMIN.email, password: 'nope-nope' });
    const unknown = await client(b.url).post('/auth/login', { email: 'ghost@example.com', password: 'nope-nope' });
    expect(wrong.status).to.equal(401);
    expect(unknown.status).to.equal(401);
    expect(wrong.body).to.deep.equal({ error: 'ERR_INVALID_CREDENTIALS' });
    expect(unknown.body).to.deep.equal(wrong.body);
  });

  it('throttles repeated failures per e-mail with 429 and Retry-After, and then refuses even the right password', async () => {
    for (let i = 0; i < 5; i++) await client(b.url).post('/auth/login', { email: ADMIN.email, password: `bad-${i}` });
    const blocked = await client(b.url).post('/auth/login', { email: ADMIN.email, password: ADMIN.password });
    expect(blocked.status).to.equal(429);
    expect(blocked.body).to.deep.equal({ error: 'ERR_TOO_MANY_LOGIN_ATTEMPTS' });
    expect(Number(blocked.headers.get('retry-after'))).to.be.greaterThan(0);
  });

  it('successful logins are not counted', async () => {
    for (let i = 0; i < 8; i++) expect((await client(b.url).post('/auth/login', ADMIN)).status).to.equal(200);
  });

  it('rotates the refresh cookie, and a replayed old refresh token revokes the whole session', async () => {
    const first = await login(b.url, ADMIN.email, ADMIN.password);
    const oldCookie = refreshCookie(first.cookie);
    const rotated = await client(b.url).post('/auth/refresh_token', undefined, { cookie: oldCookie });
    expect(rotated.status).to.equal(200);
    expect(rotated.body.token).to.be.a('string');
    const newCookie = refreshCookie(rotated.headers.get('set-cookie') ?? '');
    expect(newCookie).to.not.equal(oldCookie);
    // The token rotated away last still yields the same pair for a short grace (two tabs); one rotated
    // away before that is a replay.
    const again = await client(b.url).post('/auth/refresh_token', undefined, { cookie: newCookie });
    expect(again.status).to.equal(200);

    const replay = await client(b.url).post('/auth/refresh_token', undefined, { cookie: oldCookie });
    expect(replay.status).to.equal(401);
    expect(replay.body).to.deep.equal({ error: 'ERR_REFRESH_TOKEN_REUSED' });
    // Every token of the user is now dead: the rotated refresh token and the access tokens.
    expect((await client(b.url).post('/auth/refresh_token', undefined, { cookie: refreshCookie(again.headers.get('set-cookie') ?? '') })).status).to.equal(401);
    expect((await client(b.url, again.body.token).get('/auth/me')).status).to.equal(401);
    expect((await client(b.url, rotated.body.token).get('/auth/me')).status).to.equal(401);
    expect((await client(b.url, first.token).get('/auth/me')).status).to.equal(401);
  });

  it('refresh without a cookie or with garbage answers 401', async () => {
    expect((await client(b.url).post('/auth/refresh_token')).status).to.equal(401);
    expect((await client(b.url).post('/auth/refresh_token', undefined, { cookie: 'jrt=garbage' })).status).to.equal(401);
  });

  it('me answers the caller; logout ends the refresh session', async () => {
    const s = await login(b.url, ADMIN.email, ADMIN.password);
    const me = await client(b.url, s.token).get('/auth/me');
    expect(me.status).to.equal(200);
    expect(me.body.email).to.equal(ADMIN.email);
    const out = await client(b.url, s.token).delete('/auth/logout', { cookie: refreshCookie(s.cookie) });
    expect(out.status).to.equal(200);
    expect((await client(b.url).post('/auth/refresh_token', undefined, { cookie: refreshCookie(s.cookie) })).status).to.equal(401);
  });

  it('rejects tokens that are missing, malformed, or signed with another key', async () => {
    expect((await client(b.url).get('/auth/me')).status).to.equal(401);
    expect((await client(b.url, 'abc.def.ghi').get('/auth/me')).status).to.equal(401);
    const forged = 'eyJhbGciOiJub25lIn0.eyJ0eXAiOiJhY2Nlc3MiLCJzdWIiOiIxIiwiY29tcGFueUlkIjoxLCJwcm9maWxlIjoic3VwZXIiLCJ0diI6MH0.';
    expect((await client(b.url, forged).get('/auth/me')).status).to.equal(401);
  });

  it('signs up a company on a public plan with its admin, who can then log in', async () => {
    const res = await client(b.url).post('/auth/signup', {
      companyName: 'Floricultura Ipê',
      name: 'Maria',
      email: 'maria@ipe.test',
      password: 'maria-password',
      planId: 1,
    });
    expect(res.status).to.equal(201);
    expect(res.body.company.name).to.equal('Floricultura Ipê');
    expect(res.body.user).to.include({ email: 'maria@ipe.test', profile: 'admin' });
    const s = await login(b.url, 'maria@ipe.test', 'maria-password');
    expect(s.user.companyId).to.equal(res.body.company.id);
  });

  it('sign-up answers 4xx on bad input and writes nothing', async () => {
    const api = client(b.url);
    expect((await api.post('/auth/signup', { companyName: 'X' })).status).to.equal(422);
    expect((await api.post('/auth/signup', '{"companyName": ')).status).to.equal(400);
    expect((await api.post('/auth/signup', { companyName: 'Co', name: 'Al', email: 'al@co.test', password: 'long-enough', planId: 999 })).status).to.equal(404);
    expect((await api.post('/auth/signup', { companyName: 'Co', name: 'Al', email: ADMIN.email, password: 'long-enough', planId: 1 })).status).to.equal(409);
    const { api: sup } = await asSuper(b);
    expect((await sup.get('/companies/list')).body).to.have.length(1);
  });

  it('sign-up can be turned off by the userCreation setting', async () => {
    const { api } = await asSuper(b);
    expect((await api.put('/setting/userCreation', { value: 'disabled' })).status).to.equal(200);
    const res = await client(b.url).post('/auth/signup', { companyName: 'Co', name: 'Al', email: 'al@co.test', password: 'long-enough', planId: 1 });
    expect(res.status).to.equal(403);
    expect(res.body).to.deep.equal({ error: 'ERR_SIGNUP_DISABLED' });
  });

  it('validates a CNPJ offline before any registry call', async () => {
    for (const cnpj of ['11222333000182', '11.111.111%2F1111-11', '123']) {
      const res = await client(b.url).get(`/auth/consulta-cnpj/${cnpj}`);
      expect(res.status, cnpj).to.equal(422);
      expect(res.body).to.deep.equal({ error: 'ERR_INVALID_CNPJ' });
    }
  });

  it('a valid CNPJ with the registry unreachable answers 503 with a clear error', async () => {
    const offline = await startTestBackend({ CNPJ_REGISTRY_URL: 'http://127.0.0.1:9/cnpj' });
    try {
      const res = await client(offline.url).get('/auth/consulta-cnpj/11222333000181');
      expect(res.status).to.equal(503);
      expect(res.body).to.deep.equal({ error: 'ERR_CNPJ_REGISTRY_UNAVAILABLE' });
    } finally {
      await offline.close();
    }
  });

  it('an inactive company cannot log in', async () => {
    const c = await newCompanyWithAdmin(b);
    const { api } = await asSuper(b);
    expect((await api.put(`/companies/${c.company.id}`, { status: false })).status).to.equal(200);
    const res = await client(b.url).post('/auth/login', { email: c.admin.email, password: 'admin-password-1' });
    expect(res.status).to.equal(403);
  });
});
