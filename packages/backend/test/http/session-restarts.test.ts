import { Agent, createServer, request, type Server } from 'node:http';
import { expect } from 'chai';
import WebSocket from 'ws';
import { newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { startFakeGraph, type FakeGraph } from '../support/fake-graph.js';
import { eventually } from '../support/eventually.js';

interface Frame {
  event: string;
  data: { action: string; session?: { id: number; status: string } };
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

/** `total` restart requests, `parallel` at a time over keep-alive sockets (as a browser or a script sends them): each answer's status (or error code) and time. */
async function restartBurst(url: string, token: string, total: number, parallel: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: parallel });
  const answers: Array<{ status: number | string; ms: number; body: { restarted?: number; connections?: Array<{ id: number; status: string }> } }> = [];
  const one = () =>
    new Promise<void>((resolve) => {
      const started = Date.now();
      const req = request(
        `${url}/chatapp-restart/`,
        { method: 'POST', agent, timeout: 30_000, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } },
        (res) => {
          let text = '';
          res.on('data', (c) => {
            text += c;
          });
          res.on('end', () => {
            answers.push({ status: res.statusCode!, ms: Date.now() - started, body: JSON.parse(text) });
            resolve();
          });
        },
      );
      req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.on('error', (e: NodeJS.ErrnoException) => {
        answers.push({ status: e.code ?? e.message, ms: Date.now() - started, body: {} });
        resolve();
      });
      req.end('{}');
    });
  let sent = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (sent < total) {
        sent++;
        await one();
      }
    }),
  );
  agent.destroy();
  return answers;
}

describe('HTTP: restarting every session, many times at once', () => {
  let b: TestBackend;
  let graph: FakeGraph;
  /** Counts what reaches Meta (pages and the business number share the Graph API). */
  let front: Server;
  let graphCalls = 0;
  before(async function () {
    this.timeout(60_000);
    graph = await startFakeGraph({ 'page-token-1': '5501' }, { 1065: { wabaId: 'W1', token: 'biz-token' } });
    front = createServer((req, res) => {
      graphCalls++;
      const target = new URL(graph.url);
      const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(forward);
    });
    await new Promise<void>((r) => front.listen(0, '127.0.0.1', r));
    b = await startTestBackend({ META_GRAPH_URL: `http://127.0.0.1:${(front.address() as { port: number }).port}/v21.0` });
  });
  after(async () => {
    await b?.close();
    front?.closeAllConnections();
    front?.close();
    await graph?.close();
  });

  const restartCommands = async (id: number) =>
    (
      (await b.infra.db.orm.em
        .fork()
        .getConnection()
        .execute('select payload from outbox where subject = ? order by seq', [`cmd.session.control.${id}`])) as Array<{ payload: { action: string } }>
    ).filter((r) => r.payload.action === 'restart').length;

  it('answers every request at once, restarts each session once per run, and reports the progress as session frames', async function () {
    this.timeout(120_000);
    const { api, company, token } = await newCompanyWithAdmin(b);
    const sandboxes: number[] = [];
    for (const name of ['A', 'B', 'C']) sandboxes.push((await api.post('/chatapp/', { name, provider: 'sandbox' })).body.id as number);
    const page = await api.post('/socialnet/', { name: 'Page', channel: 'facebook', pageId: '5501', pageAccessToken: 'page-token-1' });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    const biz = await api.post('/chatapp/', { name: 'Biz', kind: 'bizchat', externalId: '1065', secrets: { accessToken: 'biz-token', wabaId: 'W1' } });
    expect(biz.status, JSON.stringify(biz.body)).to.equal(201);
    for (const id of [...sandboxes, page.body.id, biz.body.id]) {
      await eventually(`connection ${id} connected`, async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED', 20_000);
    }
    const socket = await listen(`${b.url.replace('http', 'ws')}/${company.id}?token=${token}`);
    const metaBefore = graphCalls;

    const answers = await restartBurst(b.url, token, 62, 6);

    // Every request answered, none reset or timed out, each at once (it writes the commands and returns; the runtime restarts later).
    expect(
      answers.filter((a) => a.status !== 200),
      JSON.stringify(answers.filter((a) => a.status !== 200)),
    ).to.deep.equal([]);
    expect(Math.max(...answers.map((a) => a.ms)), `answer times ${answers.map((a) => a.ms).join(' ')}`).to.be.below(5_000);
    for (const { body } of answers) {
      expect(body.restarted).to.equal(3);
      expect(body.connections!.map((c) => c.id).sort((x, y) => x - y)).to.deep.equal(sandboxes);
    }
    // Coalesced: the burst restarts each session once (twice at most, if it straddles the join window), not 62 times.
    for (const id of sandboxes) expect(await restartCommands(id), `restarts of ${id}`).to.be.within(1, 2);
    // Only chat-application sessions restart: nothing more reached Meta for the page and the business number.
    expect(graphCalls).to.equal(metaBefore);
    // Progress in the session frames: each session shows OPENING, then CONNECTED once the runtime brought it back.
    const statuses = (id: number) =>
      socket.frames.filter((f) => f.event === `company-${company.id}-chatappSession` && f.data.session?.id === id).map((f) => f.data.session!.status);
    for (const id of sandboxes) {
      await eventually(`session ${id} back up in the frames`, () => statuses(id).at(-1) === 'CONNECTED', 20_000);
      const seen = statuses(id);
      expect(seen[0], seen.join(' ')).to.equal('OPENING');
      expect(seen.filter((s) => s === 'OPENING').length, seen.join(' ')).to.be.within(1, 4);
    }
    socket.ws.close();
  });

  it('a request while a restart is pending joins it; one after the session came back down, or after the window, restarts again', async function () {
    this.timeout(60_000);
    // Without a runtime taking the commands, the first restart stays pending (OPENING).
    const quiet = await startTestBackend({ CHANNEL_RUNTIME: 'external', BROKER_URL: 'nats://127.0.0.1:1' });
    try {
      const { api } = await newCompanyWithAdmin(quiet);
      const id = (await api.post('/chatapp/', { name: 'Main', provider: 'baileys' })).body.id as number;
      const commands = async () =>
        (
          (await quiet.infra.db.orm.em
            .fork()
            .getConnection()
            .execute('select payload from outbox where subject = ? order by seq', [`cmd.session.control.${id}`])) as Array<{ payload: { action: string } }>
        ).map((r) => r.payload.action);
      const together = await Promise.all(Array.from({ length: 8 }, () => api.post('/chatapp-restart/')));
      expect(together.map((r) => r.status)).to.deep.equal(Array(8).fill(200));
      for (const r of together) expect(r.body).to.deep.include({ restarted: 1 });
      expect(together[0]!.body.connections[0]).to.include({ id, status: 'OPENING' });
      expect((await api.post('/chatapp-restart/')).body.connections[0]).to.include({ id, status: 'OPENING' });
      expect(await commands()).to.deep.equal(['start', 'restart']);
      // Logged out (the session is down): the next restart is not joined to the earlier one.
      expect((await api.delete(`/chatappsession/${id}`)).status).to.equal(200);
      expect((await api.post('/chatapp-restart/')).body.connections[0]).to.include({ id, status: 'OPENING' });
      expect(await commands()).to.deep.equal(['start', 'restart', 'logout', 'restart']);
      // Once the join window has passed (its mark lapsed), a pending restart is taken as stuck and sent again.
      await api.post('/chatapp-restart/');
      expect(await commands()).to.deep.equal(['start', 'restart', 'logout', 'restart']);
      await quiet.cache.delete(`session-restart:${id}`);
      await api.post('/chatapp-restart/');
      expect(await commands()).to.deep.equal(['start', 'restart', 'logout', 'restart', 'restart']);
    } finally {
      await quiet.close();
    }
  });
});
