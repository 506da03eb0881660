import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { client } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';
import { freePort, migratedEmbeddedTarget, postgresTarget, Service, SNAPSHOT_ADMIN, type ProcessTarget } from './processes.js';

/** The admin of the migrated data dir the embedded run starts on (the PostgreSQL run seeds it). */
const ADMIN = SNAPSHOT_ADMIN;
const APP_SECRET = 'flow-runs-processes-meta-app-secret';
const PAGE = 'FLOW-RUNS-PAGE';

type Api = ReturnType<typeof client>;

/** A Messenger delivery of one text, signed as Meta signs it. */
async function deliver(url: string, mid: string, text: string) {
  const time = Date.now();
  const body = JSON.stringify({
    object: 'page',
    entry: [{ id: PAGE, time, messaging: [{ sender: { id: 'PSID-7' }, recipient: { id: PAGE }, timestamp: time, message: { mid, text } }] }],
  });
  const signature = `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;
  const res = await fetch(`${url}/webhook/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature }, body });
  expect(res.status).to.equal(200);
}

/**
 * A flow run waiting for the contact's answer survives a SIGKILL of the backend: the run, its
 * state and the question's timer are in the database, so the answer after the restart resumes it
 * where it was and the flow ends with the transfer it leads to.
 */
function killedWhileWaiting(name: string, makeTarget: () => ProcessTarget | Promise<ProcessTarget | null>) {
  describe(`Flow runs as processes: ${name}`, function () {
    this.timeout(180_000);
    let target: ProcessTarget | null = null;
    let backend: Service | undefined;
    let graph: Server;
    let graphUrl: string;
    /** What the Graph API's Send API received: the texts the flow sent. */
    const sent: string[] = [];
    before(async function () {
      target = await makeTarget();
      if (!target) return this.skip();
      graph = createServer((req, res) => {
        let raw = '';
        req.on('data', (c) => {
          raw += c;
        });
        req.on('end', () => {
          res.setHeader('content-type', 'application/json');
          if (req.method === 'GET') return res.end(JSON.stringify({ id: PAGE, name: 'Loja' }));
          sent.push(String((JSON.parse(raw) as { message?: { text?: string } }).message?.text ?? ''));
          res.end(JSON.stringify({ recipient_id: 'PSID-7', message_id: `m_out_${sent.length}` }));
        });
      });
      await new Promise<void>((r) => graph.listen(0, '127.0.0.1', r));
      graphUrl = `http://127.0.0.1:${(graph.address() as AddressInfo).port}/v21.0`;
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed' && backend) process.stderr.write(`--- backend\n${backend.output.join('').slice(-6000)}\n`);
      await backend?.kill('SIGTERM');
    });
    after(async () => {
      await target?.dispose();
      if (graph) {
        graph.closeAllConnections();
        await new Promise((r) => graph.close(r));
      }
    });

    it('a run waiting for an answer when the backend is killed resumes on the answer after the restart', async () => {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const start = async (): Promise<Api> => {
        backend = new Service('packages/backend/src/main.ts', {
          ...target!.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          ADMIN_PASSWORD: ADMIN.password,
          CHANNEL_CONNECTORS: 'sandbox,graph',
          META_GRAPH_URL: graphUrl,
          JWT_SECRET: 'flow-runs-processes-secret-flow-runs-0123',
          META_APP_SECRET: APP_SECRET,
          OUTBOX_RELAY_INTERVAL_MS: '200',
        });
        backend.start();
        await eventually('the backend', async () => (await fetch(`${url}/version`).catch(() => null))?.ok === true, 60_000);
        const login = await client(url).post('/auth/login', ADMIN);
        expect(login.status, JSON.stringify(login.body)).to.equal(200);
        return client(url, login.body.token as string);
      };

      let api = await start();
      const page = await api.post('/socialnet/', { name: 'Loja', channel: 'facebook', pageId: PAGE, pageAccessToken: 'page-token-7' });
      expect(page.status, JSON.stringify(page.body)).to.equal(201);
      await eventually('the page to connect', async () => (await api.get(`/chatapp/${page.body.id}`)).body.status === 'CONNECTED', 30_000);
      const queue = (await api.post('/queue', { name: 'Vendas', color: '#00aa55' })).body.id as number;
      const flow = (await api.post('/flows', { name: 'Boas-vindas' })).body;
      const graph = {
        nodes: [
          { id: 'start', type: 'start', data: {} },
          {
            id: 'ask',
            type: 'question',
            data: {
              text: 'Quer falar com vendas?',
              options: [
                { handle: 'yes', label: 'Sim' },
                { handle: 'no', label: 'Não' },
              ],
              variable: 'wants',
            },
          },
          { id: 'to', type: 'transfer', data: { queueId: queue } },
          { id: 'bye', type: 'close', data: {} },
        ],
        edges: [
          { id: 'e1', source: 'start', sourceHandle: 'next', target: 'ask' },
          { id: 'e2', source: 'ask', sourceHandle: 'yes', target: 'to' },
          { id: 'e3', source: 'ask', sourceHandle: 'no', target: 'bye' },
        ],
      };
      expect((await api.put(`/flows/${flow.id}/graph`, { version: 1, ...graph })).status).to.equal(200);
      expect((await api.post(`/flows/${flow.id}/publish`, {})).status).to.equal(200);
      const activated = await api.put(`/flows/${flow.id}`, { active: true, triggers: [{ type: 'welcome', chatappIds: [page.body.id], keywords: [] }] });
      expect(activated.status, JSON.stringify(activated.body)).to.equal(200);

      await deliver(url, 'm-flow-1', 'oi');
      const ticket = await eventually(
        'the question asked',
        async () => {
          const t = (await api.get('/tickets?showAll=true')).body.tickets[0];
          if (!t) return null;
          const bodies = ((await api.get(`/messages/${t.id}`)).body.messages as Array<{ body: string; fromMe: boolean }>)
            .filter((m) => m.fromMe)
            .map((m) => m.body);
          return bodies.some((b) => b.startsWith('Quer falar com vendas?')) && t;
        },
        30_000,
      );
      expect(ticket).to.include({ status: 'pending', queueId: null });
      await eventually('the question at the Graph API', () => sent.some((t) => t.startsWith('Quer falar com vendas?')), 30_000);

      await backend!.kill('SIGKILL');
      api = await start();
      await deliver(url, 'm-flow-2', '1');
      const moved = await eventually(
        'the transfer after the restart',
        async () => {
          const t = (await api.get(`/tickets/${ticket.id}`)).body;
          return t.queueId === queue && t;
        },
        30_000,
      );
      expect(moved).to.include({ status: 'pending', userId: null });
    });
  });
}

killedWhileWaiting('embedded default (PGlite, in-process broker)', () => migratedEmbeddedTarget('sd-flow-runs-'));
killedWhileWaiting('PostgreSQL and NATS', () => postgresTarget('flow_runs'));
