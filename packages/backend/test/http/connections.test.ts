import { expect } from 'chai';
import WebSocket from 'ws';
import { requestScope } from '../../src/container.js';
import { asSuper, client, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { startFakeGraph, type FakeGraph } from '../support/fake-graph.js';
import { eventually } from '../support/eventually.js';

const TOKEN = 'connection-token-0123456789abcdef';

interface Frame {
  seq: number;
  event: string;
  data: { action: string } & Record<string, unknown>;
}

function listen(url: string): Promise<{ ws: WebSocket; frames: Frame[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames: Frame[] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(String(raw)) as Frame));
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('error', reject);
  });
}

function upload(data: Buffer, name = 'hello.png', type = 'image/png', field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([data], { type }), name);
  return form;
}

describe('HTTP: connections and sessions', () => {
  let b: TestBackend;
  // No channel runtime in this process (it would be "another process" behind BROKER_URL, which the
  // test infrastructure never dials): statuses and outbox rows stay exactly as the backend wrote them.
  // Meta's Graph API says which page each page access token belongs to.
  let graph: FakeGraph;
  before(async () => {
    graph = await startFakeGraph({ 'EAAB-page-secret': '1029384756', p: '77' });
    b = await startTestBackend({ CHANNEL_RUNTIME: 'external', BROKER_URL: 'nats://127.0.0.1:1', META_GRAPH_URL: graph.url });
  });
  after(async () => {
    await b.close();
    await graph.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const inScope = <T>(work: () => Promise<T>) => requestScope(b.infra.db)(work);
  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    b.infra.db.orm.em.fork().getConnection().execute(query, params) as Promise<T[]>;
  const controls = async (id: number) =>
    (
      await sql<{ subject: string; payload: { action: string } }>('select subject, payload from outbox where subject = ? order by seq', [
        `cmd.session.control.${id}`,
      ])
    ).map((r) => r.payload.action);

  it('an admin creates, lists, filters, shows, updates and deletes connections; the token is write-only', async () => {
    const { api, company } = await newCompanyWithAdmin(b);
    const created = await api.post('/chatapp/', {
      name: 'Main',
      provider: 'baileys',
      token: TOKEN,
      greetingMessage: 'Hello!',
      isDefault: true,
      reopenWindowMinutes: 15,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({
      name: 'Main',
      kind: 'chatapp',
      provider: 'baileys',
      status: 'OPENING',
      companyId: company.id,
      isDefault: true,
      reopenWindowMinutes: 15,
    });
    expect(created.body.token).to.equal('conn••••cdef');
    expect(created.body).to.not.have.any.keys('tokenDigest', 'secrets');
    const id = created.body.id as number;
    expect((await inScope(() => b.app.connections.authenticateConnection.execute(TOKEN))).id).to.equal(id);
    const page = await api.post('/socialnet/', {
      name: 'Page',
      provider: 'messenger',
      externalId: '1029384756',
      secrets: { pageAccessToken: 'EAAB-page-secret' },
    });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    expect(JSON.stringify(page.body)).to.not.include('EAAB-page-secret');

    const list = await api.get('/chatapp/');
    expect(list.body.map((c: { id: number }) => c.id)).to.deep.equal([id, page.body.id]);
    expect(JSON.stringify(list.body)).to.not.include(TOKEN);
    expect((await api.get('/chatapp/filter?kind=socialnet')).body.map((c: { id: number }) => c.id)).to.deep.equal([page.body.id]);
    expect((await api.get('/chatapp/filter?provider=baileys&status=OPENING')).body.map((c: { id: number }) => c.id)).to.deep.equal([id]);
    expect((await api.get('/chatapp/filter?kind=nope')).status).to.equal(422);
    expect((await api.get(`/chatapp/${id}`)).body).to.include({ name: 'Main', greetingMessage: 'Hello!' });

    const renamed = await api.put(`/chatapp/${id}`, { name: 'Renamed', token: created.body.token, farewellMessage: 'Bye' });
    expect(renamed.status).to.equal(200);
    expect(renamed.body).to.include({ name: 'Renamed', complationMessage: 'Bye', token: 'conn••••cdef', channel: 'chatapp', qrcode: '' });
    // The lineage's form: its name of the farewell, its library channel as `provider`, the GET answer sent back with its own fields.
    const shown = (await api.get(`/chatapp/${id}?session=0`)).body;
    const edited = await api.put(`/chatapp/${id}`, {
      ...shown,
      complationMessage: 'Até logo',
      provider: 'beta',
      schedules: [],
      timeSendQueue: '0',
      promptId: null,
    });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    expect(edited.body).to.include({ complationMessage: 'Até logo', provider: 'baileys', token: 'conn••••cdef' });
    expect((await inScope(() => b.app.connections.authenticateConnection.execute(TOKEN))).id).to.equal(id);
    expect((await api.put(`/chatapp/${id}`, { token: null })).body.token).to.equal(null);
    expect(await inScope(() => b.app.connections.authenticateConnection.execute(TOKEN)).catch((e) => e.code)).to.equal('ERR_INVALID_CONNECTION_TOKEN');
    expect((await api.put(`/chatapp/${id}`, { kind: 'socialnet' })).status).to.equal(422);
    expect((await api.put(`/chatapp/${id}`, { provider: 'instagram' })).body).to.deep.equal({ error: 'ERR_CONNECTION_KIND_CHANGE' });

    const removed = await api.delete(`/chatapp/${id}`);
    expect(removed.status).to.equal(200);
    expect((await api.get(`/chatapp/${id}`)).status).to.equal(404);
    expect(await controls(id)).to.deep.equal(['start', 'logout']);
  });

  it('a token selects one connection on the whole platform: reuse answers 409', async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    expect((await a.api.post('/chatapp/', { name: 'A', token: TOKEN })).status).to.equal(201);
    const dup = await other.api.post('/chatapp/', { name: 'B', token: TOKEN });
    expect(dup.status).to.equal(409);
    expect(dup.body).to.deep.equal({ error: 'ERR_TOKEN_IN_USE' });
    const second = await other.api.post('/chatapp/', { name: 'B' });
    expect((await other.api.put(`/chatapp/${second.body.id}`, { token: TOKEN })).status).to.equal(409);
    expect((await other.api.get('/chatapp/')).body.map((c: { token: string | null }) => c.token)).to.deep.equal([null]);
  });

  it('enforces the plan connection limit with 403', async () => {
    const { api: sup } = await asSuper(b);
    const plan = await sup.post('/plans', { name: 'One line', users: 2, connections: 1, queues: 1, amount: 10 });
    const c = await newCompanyWithAdmin(b, { planId: plan.body.id });
    expect((await c.api.post('/chatapp/', { name: 'Only' })).status).to.equal(201);
    const second = await c.api.post('/socialnet/', { name: 'Page', externalId: '42', secrets: { pageAccessToken: 'p' } });
    expect(second.status).to.equal(403);
    expect(second.body).to.deep.equal({ error: 'ERR_CONNECTION_CREATION_COUNT' });
    expect((await c.api.get('/chatapp/')).body).to.have.length(1);
  });

  it('answers bad input with 4xx {error} and writes nothing', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const bad: Array<[string, unknown]> = [
      ['/chatapp/', {}],
      ['/chatapp/', { name: '  ' }],
      ['/chatapp/', { name: 'x'.repeat(121) }],
      ['/chatapp/', { name: 'A', provider: 'messenger' }],
      ['/chatapp/', { name: 'A', provider: 'telegraph' }],
      ['/chatapp/', { name: 'A', token: 'short' }],
      ['/chatapp/', { name: 'A', reopenWindowMinutes: 10081 }],
      ['/chatapp/', { name: 'A', greetingMessage: 'x'.repeat(4001) }],
      ['/chatapp/', { name: 'A', isDefault: 'maybe' }],
      ['/socialnet/', { name: 'Page' }],
      ['/socialnet/', { name: 'Page', externalId: '1' }],
      ['/socialnet/', { name: 'Page', externalId: 'has spaces', secrets: { pageAccessToken: 'p' } }],
      ['/chatapp/', '{"name":'],
    ];
    for (const [path, body] of bad) {
      const res = await api.post(path, body);
      expect(res.status, `${path} ${JSON.stringify(body)}`).to.be.within(400, 422);
      expect(res.body).to.have.property('error').that.is.a('string');
    }
    expect((await api.get('/chatapp/')).body).to.deep.equal([]);
    expect(await sql('select id from outbox')).to.deep.equal([]);
    expect((await api.get('/chatapp/abc')).status).to.equal(422);
  });

  it("keeps tenants apart: 404 for another company's connection, admin routes only for super users", async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    const theirs = (await other.api.post('/chatapp/', { name: 'Theirs' })).body.id as number;
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/chatapp/${theirs}`],
      ['PUT', `/chatapp/${theirs}`, { name: 'Hijack' }],
      ['DELETE', `/chatapp/${theirs}`],
      ['POST', `/closedimported/${theirs}`, {}],
      ['DELETE', `/chatapp/${theirs}/media-upload`],
      ['POST', `/chatapp/${theirs}/media-upload`, upload(Buffer.from('x'))],
      ['POST', `/chatappsession/${theirs}`, {}],
      ['PUT', `/chatappsession/${theirs}`, {}],
      ['DELETE', `/chatappsession/${theirs}`],
    ];
    for (const [method, path, body] of attempts) expect((await a.api.call(method, path, body)).status, `${method} ${path}`).to.equal(404);
    for (const [method, body] of [['GET'], ['PUT', { name: 'x' }], ['DELETE']] as const) {
      const res = await a.api.call(method, `/chatapp-admin/${theirs}`, body);
      expect(res.status, method).to.equal(403);
    }
    expect((await a.api.get('/chatapp/all')).status).to.equal(403);
    expect((await a.api.get('/chatapp/')).body).to.deep.equal([]);
    const { api: sup } = await asSuper(b);
    expect((await sup.get(`/chatapp/${theirs}`)).status).to.equal(404);
    expect((await sup.get(`/chatapp-admin/${theirs}`)).body).to.include({ name: 'Theirs', companyId: other.company.id });
    expect((await sup.put(`/chatapp-admin/${theirs}`, { name: 'Fixed by support' })).body.name).to.equal('Fixed by support');
    expect((await sup.get('/chatapp/all')).body.map((c: { id: number }) => c.id)).to.deep.equal([theirs]);
    expect((await sup.delete(`/chatapp-admin/${theirs}`)).status).to.equal(200);
    expect((await other.api.get('/chatapp/')).body).to.deep.equal([]);
  });

  it('operators see connections but only admins change them', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const id = (await api.post('/chatapp/', { name: 'Main' })).body.id as number;
    await api.post('/users', { name: 'Operator', email: 'op@conn.test', password: 'operator-pass' });
    const op = client(b.url, (await login(b.url, 'op@conn.test', 'operator-pass')).token);
    expect((await op.get('/chatapp/')).body).to.have.length(1);
    expect((await op.get(`/chatapp/${id}`)).status).to.equal(200);
    expect((await op.post('/chatapp/', { name: 'Mine' })).status).to.equal(403);
    expect((await op.put(`/chatapp/${id}`, { name: 'x' })).status).to.equal(403);
    expect((await op.delete(`/chatappsession/${id}`)).status).to.equal(403);
    expect((await op.post('/chatapp-restart/')).status).to.equal(403);
  });

  it('starts, restarts and logs out sessions: status, outbox command and a chatappSession frame', async () => {
    const { api, company, token } = await newCompanyWithAdmin(b);
    const id = (await api.post('/chatapp/', { name: 'Main', provider: 'baileys' })).body.id as number;
    const socket = await listen(`${b.url.replace('http', 'ws')}/${company.id}?token=${token}`);
    const sessionFrame = (status: string) =>
      eventually(`a ${status} session frame`, () =>
        socket.frames.find(
          (f) =>
            f.event === `company-${company.id}-chatappSession` &&
            (f.data.session as { id: number; status: string }).status === status &&
            (f.data.session as { id: number }).id === id &&
            f,
        ),
      );
    const logout = await api.delete(`/chatappsession/${id}`);
    expect(logout.status).to.equal(200);
    expect(logout.body).to.include({ id, status: 'DISCONNECTED' });
    await sessionFrame('DISCONNECTED');
    socket.frames.length = 0;
    expect((await api.post(`/chatappsession/${id}`)).body.status).to.equal('OPENING');
    expect((await sessionFrame('OPENING')).data.action).to.equal('update');
    expect((await api.put(`/chatappsession/${id}`)).body.status).to.equal('OPENING');
    expect(await controls(id)).to.deep.equal(['start', 'logout', 'start', 'restart']);
    const [row] = await sql<{ payload: Record<string, unknown> }>('select payload from outbox where subject = ? order by seq desc limit 1', [
      `cmd.session.control.${id}`,
    ]);
    expect(row!.payload).to.deep.include({ type: 'SessionControl', action: 'restart', companyId: company.id, chatappId: id, provider: 'baileys' });
    socket.ws.close();
  });

  it('restarts every chat-application session of the company', async () => {
    const { api } = await newCompanyWithAdmin(b);
    const a = (await api.post('/chatapp/', { name: 'A' })).body.id as number;
    const c = (await api.post('/chatapp/', { name: 'C' })).body.id as number;
    const page = (await api.post('/socialnet/', { name: 'Page', externalId: '77', secrets: { pageAccessToken: 'p' } })).body.id as number;
    const res = await api.post('/chatapp-restart/');
    expect(res.status).to.equal(200);
    expect(res.body.restarted).to.equal(2);
    expect(await controls(a)).to.deep.equal(['start', 'restart']);
    expect(await controls(c)).to.deep.equal(['start', 'restart']);
    expect(await controls(page)).to.deep.equal(['start']);
  });

  it('uploads, replaces and removes the greeting media', async () => {
    const { api, company } = await newCompanyWithAdmin(b);
    const id = (await api.post('/chatapp/', { name: 'Main' })).body.id as number;
    expect((await api.post(`/chatapp/${id}/media-upload`, upload(Buffer.alloc(0)))).status).to.equal(422);
    expect((await api.post(`/chatapp/${id}/media-upload`, upload(Buffer.from('x'), 'a.png', 'image/png', 'other'))).status).to.equal(422);
    const first = await api.post(`/chatapp/${id}/media-upload`, upload(Buffer.from('%PDF-1.4 greeting'), 'Boas vindas.pdf', 'application/pdf'));
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    const key = first.body.greetingMediaKey as string;
    expect(key).to.match(new RegExp(`^public/company-${company.id}/connections/[0-9a-f-]{36}-Boas_vindas\\.pdf$`));
    const served = await client(b.url).get(`/${key}`);
    expect(served.status).to.equal(200);
    expect(served.headers.get('content-type')).to.equal('application/pdf');
    const second = await api.post(`/chatapp/${id}/media-upload`, upload(Buffer.from('<script>x</script>'), 'x.html', 'text/html'));
    expect((await client(b.url).get(`/${key}`)).status).to.equal(404);
    expect((await client(b.url).get(`/${second.body.greetingMediaKey}`)).headers.get('content-type')).to.equal('application/octet-stream');
    const removed = await api.delete(`/chatapp/${id}/media-upload`);
    expect(removed.body.greetingMediaKey).to.equal(null);
    expect((await client(b.url).get(`/${second.body.greetingMediaKey}`)).status).to.equal(404);
  });

  it('closes the pending unassigned tickets of a connection', async () => {
    const { api, company, admin } = await newCompanyWithAdmin(b);
    const id = (await api.post('/chatapp/', { name: 'Imported' })).body.id as number;
    const otherId = (await api.post('/chatapp/', { name: 'Other' })).body.id as number;
    const inbound = (chatappId: number, from: string) =>
      inScope(() =>
        b.app.conversations.routeInbound.execute({
          type: 'InboundMessage',
          companyId: company.id,
          chatappId,
          providerMessageId: `imp-${chatappId}-${from}`,
          from,
          senderName: from,
          body: 'old',
          isGroup: false,
          at: new Date().toISOString(),
        }),
      );
    for (const from of ['5511900000001', '5511900000002', '5511900000003']) await inbound(id, from);
    await inbound(otherId, '5511900000004');
    const [taken] = await sql<{ id: number }>('select id from tickets where connection_id = ? order by id limit 1', [id]);
    await sql('update tickets set user_id = ?, status = ? where id = ?', [admin.id, 'open', taken!.id]);
    const res = await api.post(`/closedimported/${id}`);
    expect(res.status).to.equal(200);
    expect(res.body).to.deep.equal({ closed: 2 });
    const rows = await sql<{ connection_id: number; status: string }>('select connection_id, status from tickets order by id');
    expect(rows.map((r) => `${r.connection_id}:${r.status}`)).to.deep.equal([`${id}:open`, `${id}:closed`, `${id}:closed`, `${otherId}:pending`]);
    expect((await api.post(`/closedimported/${id}`)).body).to.deep.equal({ closed: 0 });
  });
});

describe('HTTP: connections with the embedded channel runtime', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b.close();
  });

  it('a sandbox connection connects through the outbox, the relay and the runtime; a logout disconnects it', async () => {
    const { api, company, token } = await newCompanyWithAdmin(b);
    const socket = await listen(`${b.url.replace('http', 'ws')}/${company.id}?token=${token}`);
    const id = (await api.post('/chatapp/', { name: 'Sandbox', provider: 'sandbox' })).body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    const published = (await b.infra.db.orm.em.fork().getConnection().execute('select published_at from outbox')) as Array<{ published_at: unknown }>;
    expect(published).to.have.length(1);
    expect(published[0]!.published_at).to.not.equal(null);
    expect((await api.delete(`/chatappsession/${id}`)).body.status).to.equal('DISCONNECTED');
    await eventually('the frames of the whole story', () => {
      const statuses = socket.frames
        .filter((f) => f.event === `company-${company.id}-chatappSession`)
        .map((f) => (f.data.session as { status: string }).status);
      return statuses.includes('CONNECTED') && statuses.at(-1) === 'DISCONNECTED';
    });
    expect((await api.get(`/chatapp/${id}`)).body.status).to.equal('DISCONNECTED');
    socket.ws.close();
  });
});
