import { expect } from 'chai';
import { startFakeHttpProxy, startFakeSocks5Proxy, startTunnelTarget, type FakeProxy } from '@servicedesk/core/contracts/fake-proxies';
import { eventually } from '../support/eventually.js';
import { asSuper, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const CREDS = { username: 'acme', password: 'proxy-secret-1' };

describe('HTTP: proxies', () => {
  let b: TestBackend;
  let target: Awaited<ReturnType<typeof startTunnelTarget>>;
  let httpProxy: FakeProxy;
  let socksProxy: FakeProxy;
  before(async () => {
    target = await startTunnelTarget();
    httpProxy = await startFakeHttpProxy({ credentials: CREDS });
    socksProxy = await startFakeSocks5Proxy({ credentials: CREDS });
    b = await startTestBackend({
      ALLOW_PRIVATE_URLS: 'true',
      PROXY_CHECK_TARGET: `127.0.0.1:${target.port}`,
      PROXY_CHECK_TIMEOUT_MS: '2000',
      OUTBOX_RELAY_INTERVAL_MS: '100',
    });
  });
  after(async () => {
    await b.close();
    await httpProxy.close();
    await socksProxy.close();
    await target.close();
  });
  beforeEach(async () => {
    await b.reset();
    httpProxy.tunnels.length = 0;
    socksProxy.tunnels.length = 0;
  });

  type Api = Awaited<ReturnType<typeof newCompanyWithAdmin>>['api'];
  const httpFields = () => ({ name: 'HTTP one', protocol: 'http', host: '127.0.0.1', port: httpProxy.port, ...CREDS, country: 'br' });
  const socksFields = () => ({ name: 'SOCKS one', protocol: 'socks5', host: '127.0.0.1', port: socksProxy.port, ...CREDS, maxConnections: 2 });

  /** A company admin with `n` sandbox session connections, each connected. */
  async function companyWithSessions(n: number) {
    const c = await newCompanyWithAdmin(b);
    const ids: number[] = [];
    for (let i = 1; i <= n; i += 1) {
      const created = await c.api.post('/chatapp/', { name: `Session ${i}`, provider: 'sandbox' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      ids.push(created.body.id);
    }
    for (const id of ids) await eventually('the session to connect', async () => (await c.api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    return { ...c, ids };
  }

  const created = async (api: Api, fields: Record<string, unknown>) => {
    const res = await api.post('/proxy', fields);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { id: number };
  };

  it('adds proxies after a tunnel through them, keeps the password write-only and sealed, and refuses bad input with 4xx', async () => {
    const c = await companyWithSessions(0);
    const res = await c.api.post('/proxy', httpFields());
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({
      name: 'HTTP one',
      protocol: 'http',
      host: '127.0.0.1',
      port: httpProxy.port,
      username: 'acme',
      hasPassword: true,
      country: 'BR',
      maxConnections: 5,
      status: 'healthy',
      active: true,
      isGlobal: false,
      companyId: c.company.id,
      assignedConnections: 0,
    });
    expect(res.body).to.not.have.any.keys('password', 'passwordSealed');
    expect(httpProxy.tunnels).to.deep.equal([{ host: '127.0.0.1', port: target.port, username: 'acme', accepted: true }]);
    const rows = await b.infra.db.orm.em.fork().getConnection().execute<Array<{ password_sealed: string }>>('select password_sealed from proxies');
    expect(rows[0]!.password_sealed).to.match(/^v1\./).and.not.include(CREDS.password);
    const socks = await c.api.post('/proxy', socksFields());
    expect(socks.body).to.deep.include({ protocol: 'socks5', status: 'healthy' });
    const listed = await c.api.get('/proxy');
    expect(listed.body.map((p: { name: string }) => p.name)).to.deep.equal(['HTTP one', 'SOCKS one']);
    expect(JSON.stringify(listed.body)).to.not.include(CREDS.password);

    expect((await c.api.post('/proxy', { ...httpFields(), password: 'wrong' })).body).to.deep.equal({ error: 'ERR_PROXY_CHECK_FAILED' });
    const unchecked = await c.api.post('/proxy', { ...httpFields(), password: 'wrong', skipCheck: true });
    expect(unchecked.status).to.equal(200);
    expect(unchecked.body, 'nothing was checked').to.deep.include({ status: 'unchecked', active: true, lastCheckAt: null, lastLatencyMs: null });
    expect((await c.api.post('/proxy', { ...httpFields(), host: 'not a host' })).body).to.deep.equal({ error: 'ERR_PROXY_INVALID_HOST' });
    expect((await c.api.post('/proxy', { ...httpFields(), port: 0 })).body).to.deep.equal({ error: 'ERR_PROXY_INVALID_PORT' });
    expect((await c.api.post('/proxy', { ...httpFields(), port: 'abc' })).body.error).to.equal('ERR_VALIDATION');
    expect((await c.api.post('/proxy', { ...httpFields(), protocol: 'ftp' })).body.error).to.equal('ERR_VALIDATION');
    expect((await c.api.post('/proxy', { name: 'No host' })).body.error).to.equal('ERR_VALIDATION');
    expect((await c.api.post('/proxy', '{not json')).status).to.equal(400);
    expect((await c.api.put('/proxy/abc', { name: 'x' })).body.error).to.equal('ERR_VALIDATION');
    expect((await c.api.put('/proxy/999999', { name: 'x' })).body).to.deep.equal({ error: 'ERR_NO_PROXY_FOUND' });
  });

  it("keeps pools apart: another company's proxy is 404, the platform's is read-only to admins, operators are refused", async () => {
    const a = await companyWithSessions(1);
    const other = await newCompanyWithAdmin(b);
    const { api: root } = await asSuper(b);
    const theirs = await created(other.api, { ...httpFields(), name: 'Theirs' });
    const global = await created(root, { ...socksFields(), name: 'Platform' });
    expect((await a.api.get('/proxy')).body.map((p: { name: string; isGlobal: boolean }) => [p.name, p.isGlobal])).to.deep.equal([['Platform', true]]);
    for (const [method, url, body] of [
      ['PUT', `/proxy/${theirs.id}`, { name: 'x' }],
      ['DELETE', `/proxy/${theirs.id}`, undefined],
      ['POST', `/proxy/disable-problematic/${theirs.id}`, {}],
      ['POST', `/proxy/assign/${a.ids[0]}`, { proxyId: theirs.id }],
    ] as const) {
      const res = await a.api.call(method, url, body);
      expect(res.status, `${method} ${url}`).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'ERR_NO_PROXY_FOUND' });
    }
    expect((await a.api.put(`/proxy/${global.id}`, { name: 'Mine' })).body).to.deep.equal({ error: 'ERR_PROXY_READ_ONLY' });
    expect((await a.api.delete(`/proxy/${global.id}`)).body).to.deep.equal({ error: 'ERR_PROXY_READ_ONLY' });
    const theirConnection = (await other.api.post('/chatapp/', { name: 'Their session', provider: 'sandbox' })).body.id;
    expect((await a.api.post(`/proxy/assign/${theirConnection}`, {})).body).to.deep.equal({ error: 'ERR_NO_CONNECTION_FOUND' });
    expect((await a.api.delete(`/proxy/remove/${theirConnection}`)).body).to.deep.equal({ error: 'ERR_NO_CONNECTION_FOUND' });

    const op = await a.api.post('/users', { name: 'Op', email: 'op@proxies.test', password: 'operator-pass-1' });
    expect(op.status).to.equal(201);
    const { client, login } = await import('../support/test-backend.js');
    const opApi = client(b.url, (await login(b.url, 'op@proxies.test', 'operator-pass-1')).token);
    for (const [method, url] of [
      ['GET', '/proxy'],
      ['GET', '/proxy/stats'],
      ['POST', '/proxy'],
      ['POST', '/proxy/auto-balance'],
      ['POST', `/proxy/assign/${a.ids[0]}`],
    ] as const) {
      const res = await opApi.call(method, url, method === 'POST' ? { ...httpFields() } : undefined);
      expect(res.status, `${method} ${url}`).to.equal(403);
      expect(res.body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    }
    expect((await b.infra.db.orm.em.fork().getConnection().execute('select count(*)::int as n from proxies'))[0].n).to.equal(2);
  });

  it('assigns, balances, disables and removes, restarting the sessions that move, with figures from the database', async () => {
    const c = await companyWithSessions(3);
    const h = await created(c.api, httpFields());
    const s = await created(c.api, socksFields());
    const assigned = await c.api.post(`/proxy/assign/${c.ids[0]}`, { proxyId: s.id });
    expect(assigned.status, JSON.stringify(assigned.body)).to.equal(200);
    expect(assigned.body).to.deep.include({ chatappId: c.ids[0], proxyId: s.id, restarted: true });
    await eventually('the session to come back', async () => (await c.api.get(`/chatapp/${c.ids[0]}`)).body.status === 'CONNECTED');

    const balanced = await c.api.post('/proxy/auto-balance');
    expect(balanced.status, JSON.stringify(balanced.body)).to.equal(200);
    expect(balanced.body.moved.map((m: { chatappId: number }) => m.chatappId)).to.deep.equal([c.ids[1], c.ids[2]]);
    expect(balanced.body.skipped).to.deep.equal([]);

    let stats = (await c.api.get('/proxy/stats')).body;
    expect(stats).to.deep.include({ total: 2, active: 2, disabled: 0, capacity: 7, used: 3, free: 4, unassignedConnections: 0 });

    expect((await c.api.delete(`/proxy/${s.id}`)).body).to.deep.equal({ error: 'ERR_PROXY_IN_USE' });
    const disabled = await c.api.post(`/proxy/disable-problematic/${s.id}`, { reason: 'numbers banned' });
    expect(disabled.status, JSON.stringify(disabled.body)).to.equal(200);
    expect(disabled.body.moved.every((m: { from: number; to: number }) => m.from === s.id && m.to === h.id)).to.equal(true);
    stats = (await c.api.get('/proxy/stats')).body;
    expect(stats.perProxy.find((p: { id: number }) => p.id === h.id)).to.deep.include({ assigned: 3 });
    expect(stats.byStatus).to.deep.equal({ healthy: 1, unchecked: 0, degraded: 0, failing: 0, disabled: 1 });
    const reactivated = await c.api.put(`/proxy/${s.id}`, { active: true });
    expect(reactivated.body).to.deep.include({ status: 'healthy', disabledReason: null, active: true });

    const rebalanced = await c.api.post('/proxy/force-rebalance-all');
    expect(rebalanced.status, JSON.stringify(rebalanced.body)).to.equal(200);
    expect(rebalanced.body.moved).to.have.length(1);
    expect((await c.api.post('/proxy/force-reassign')).body).to.deep.equal({ moved: [], skipped: [] });

    const removed = await c.api.delete(`/proxy/remove/${c.ids[0]}`);
    expect(removed.status, JSON.stringify(removed.body)).to.equal(200);
    expect(removed.body).to.deep.include({ chatappId: c.ids[0], proxyId: null });
    expect((await c.api.delete(`/proxy/remove/${c.ids[0]}`)).body).to.deep.equal({ error: 'ERR_NO_PROXY_ASSIGNMENT' });
    expect((await c.api.post(`/proxy/assign/${c.ids[0]}`, { proxyId: 'x' })).body.error).to.equal('ERR_VALIDATION');
    const deleted = await c.api.delete(`/proxy/${h.id}?force=true`);
    expect(deleted.body).to.deep.equal({ message: 'Proxy deleted' });
    expect((await c.api.get('/proxy')).body.map((p: { id: number }) => p.id)).to.deep.equal([s.id]);
  });
});

describe('HTTP: proxies on a deployment that keeps private addresses out (the default)', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ PROXY_CHECK_TIMEOUT_MS: '1000' });
  });
  after(async () => {
    await b.close();
  });

  it('refuses a proxy on a private address with 422 ERR_URL_NOT_ALLOWED whether or not it is checked, on create and on edit', async () => {
    const c = await newCompanyWithAdmin(b);
    const fields = { name: 'Inside', protocol: 'http', port: 80 };
    for (const host of ['169.254.169.254', '127.0.0.1', '10.0.0.8']) {
      for (const extra of [{}, { skipCheck: true }, { skipCheck: true, active: false }]) {
        const res = await c.api.post('/proxy', { ...fields, host, ...extra });
        expect([res.status, res.body], `${host} ${JSON.stringify(extra)}`).to.deep.equal([422, { error: 'ERR_URL_NOT_ALLOWED' }]);
      }
    }
    // A public address saved unchecked: nothing connects to it, and it is not called healthy.
    const saved = await c.api.post('/proxy', { ...fields, name: 'Outside', host: '8.8.8.8', skipCheck: true });
    expect(saved.status, JSON.stringify(saved.body)).to.equal(200);
    expect(saved.body).to.deep.include({ host: '8.8.8.8', status: 'unchecked', lastCheckAt: null });
    for (const body of [{ host: '169.254.169.254', skipCheck: true }, { host: '127.0.0.1' }, { active: false, host: '127.0.0.1', skipCheck: true }]) {
      const res = await c.api.put(`/proxy/${saved.body.id}`, body);
      expect([res.status, res.body], JSON.stringify(body)).to.deep.equal([422, { error: 'ERR_URL_NOT_ALLOWED' }]);
    }
    const listed = (await c.api.get('/proxy')).body;
    expect(listed.map((p: { host: string; status: string }) => [p.host, p.status])).to.deep.equal([['8.8.8.8', 'unchecked']]);
  });
});
