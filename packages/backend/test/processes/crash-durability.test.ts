import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openDatabase } from '@servicedesk/adapters-persistence';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { client } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';
import { graphOwnership } from '../support/fake-graph.js';
import {
  builtEntry,
  freePort,
  freshDatabase,
  migratedEmbeddedTarget,
  postgresTarget,
  privateNatsServer,
  Service,
  SNAPSHOT_ADMIN,
  type ProcessTarget,
} from './processes.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
/** The admin of the migrated data dir the embedded runs start on (the PostgreSQL runs seed it). */
const ADMIN = SNAPSHOT_ADMIN;
const TOKEN = 'crash-durability-connection-token-01';
const NUMBER = '5511999990000';
/** Kill rounds per configuration; CRASH_ROUNDS=40 runs the long version. */
const ROUNDS = Number(process.env.CRASH_ROUNDS ?? 3);
/** Concurrent senders: enough that sends queue in the broker when the kill lands. */
const SENDERS = 8;

interface Target {
  readonly env: Record<string, string>;
  /** Runs SQL on the backend's database once the backend has stopped (PGlite is one process's). */
  query(sql: string): Promise<Array<Record<string, unknown>>>;
  dispose(): Promise<void>;
}

interface Request {
  readonly key: string;
  readonly body: string;
  answer?: { messageId: string; ticketId: number };
}

/**
 * The backend as a real process, killed with SIGKILL at random moments while official-API sends
 * with Idempotency-Keys flow; after each crash it starts again on the same data. At the end every
 * request is retried with its key: each accepted send must be stored once and delivered once.
 */
function crashRounds(name: string, makeTarget: () => Promise<Target | null>) {
  describe(`Crash durability: ${name}`, function () {
    this.timeout(Math.max(300_000, ROUNDS * 60_000));
    let target: Target;
    let port: number;
    let backend: Service;
    const url = () => `http://127.0.0.1:${port}`;

    before(async function () {
      const t = await makeTarget();
      if (!t) return this.skip();
      target = t;
      port = await freePort();
    });
    after(async () => {
      await backend?.kill('SIGTERM');
      await target?.dispose();
    });

    async function start() {
      backend = new Service('packages/backend/src/main.ts', {
        ...target.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ADMIN_PASSWORD: ADMIN.password,
        CHANNEL_CONNECTORS: 'sandbox',
        JWT_SECRET: 'crash-durability-secret-crash-durability-0123',
        OUTBOX_RELAY_INTERVAL_MS: '200',
        SEND_DEADLINE_MS: '600000',
      });
      backend.start();
      await eventually('the backend', async () => (await fetch(`${url()}/version`).catch(() => null))?.ok === true, 60_000);
    }

    it('delivers every send answered 2xx exactly once, and key retries after restarts store nothing twice', async () => {
      await start();
      const login = await client(url()).post('/auth/login', ADMIN);
      const admin = client(url(), login.body.token);
      const created = await admin.post('/chatapp/', { name: 'Crash sandbox', provider: 'sandbox', token: TOKEN });
      expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 201]);
      const requests: Request[] = [];
      const api = () => client(url(), TOKEN);
      const send = async (r: Request) => {
        const res = await api().post('/api/messages/send', { number: NUMBER, body: r.body }, { 'idempotency-key': r.key });
        if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
        return res.body as { messageId: string; ticketId: number };
      };
      for (let round = 0; round < ROUNDS; round++) {
        if (round > 0) await start();
        let crashed = false;
        // Senders until the kill; a request cut by the kill has an unknown outcome (retried below).
        const worker = async (w: number) => {
          for (let i = 0; !crashed; i++) {
            const r: Request = { key: `r${round}-w${w}-${i}`, body: `round ${round} worker ${w} message ${i}` };
            requests.push(r);
            try {
              r.answer = await send(r);
            } catch {
              return;
            }
          }
        };
        const workers = Array.from({ length: SENDERS }, (_, w) => worker(w));
        await new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 1500));
        crashed = true;
        await backend.kill('SIGKILL');
        await Promise.all(workers);
      }
      await start();
      // Every request again, with its key: an accepted one answers as the first time, an unknown one is sent now.
      for (const r of requests) {
        const again = await send(r);
        if (r.answer) expect(again, r.key).to.deep.equal(r.answer);
        r.answer = again;
      }
      const expected = new Map(requests.map((r) => [r.answer!.messageId, r]));
      const tickets = [...new Set(requests.map((r) => r.answer!.ticketId))];
      const notSent = new Map<string, string>();
      await eventually(
        'every send reported sent by the channel runtime',
        async () => {
          notSent.clear();
          for (const ticketId of tickets) {
            for (let page = 1; ; page++) {
              const res = await admin.get(`/messages/${ticketId}?pageNumber=${page}`);
              for (const m of res.body.messages as Array<{ id: string; ack: number; failureReason?: string | null }>) {
                if (expected.has(m.id) && m.ack < 1) notSent.set(m.id, `ack ${m.ack}${m.failureReason ? ` (${m.failureReason})` : ''}`);
              }
              if (!res.body.hasMore) break;
            }
          }
          return notSent.size === 0;
        },
        90_000,
      ).catch((err: Error) => {
        // Which sends, and in what state, if a run ever misses one (diagnosis of a real loss).
        throw new Error(`${err.message}: ${[...notSent].map(([id, state]) => `${expected.get(id)!.key} ${state}`).join(', ')}`);
      });
      await backend.kill('SIGTERM');
      const stored = await target.query("select body, count(*)::int as n from messages where from_me and body like 'round %' group by body");
      expect(
        stored.filter((s) => Number(s.n) !== 1),
        'messages stored twice',
      ).to.deep.equal([]);
      expect(stored.map((s) => s.body).sort()).to.deep.equal(requests.map((r) => r.body).sort());
      const ledger = await target.query('select idempotency_key as key from channel.sandbox_sent');
      const delivered = new Set(ledger.map((l) => String(l.key)));
      expect(
        [...expected.keys()].filter((id) => !delivered.has(id)),
        'accepted but never delivered',
      ).to.deep.equal([]);
      const keys = await target.query("select count(*)::int as n from idempotency_keys where key like 'r%-w%'");
      expect(Number(keys[0]!.n)).to.equal(requests.length);
    });
  });
}

crashRounds('embedded default (PGlite, in-process broker)', () => migratedEmbeddedTarget('sd-crash-'));

crashRounds('PostgreSQL and NATS', async () => {
  const base = integrationUrl('TEST_DATABASE_URL');
  if (!base) return null;
  const nats = await privateNatsServer();
  if (!nats) return null;
  const db = await freshDatabase(base);
  await db.connect();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-crash-pg-'));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: db.url, BROKER_URL: nats.url, CHANNEL_RUNTIME: 'embedded' },
    query: (sql) => db.query(sql),
    async dispose() {
      await db.drop();
      await nats.dispose();
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
});

const APP_SECRET = 'crash-durability-meta-app-secret';
const MICRO_SECRET = 'crash-durability-microservice-secret-0123';
const PAGE = 'CRASH-PAGE-1';
const PHONE_NUMBER_ID = '106540352249999';
const WABA_ID = '102290129349999';

/**
 * The Graph API as far as registering the connections goes: the page of a page token, and the
 * business number (`GET /<phone-number-id>`, `GET /<waba-id>/phone_numbers`) its access token reaches.
 */
async function fakeGraph(): Promise<{ url: string; close(): Promise<void> }> {
  const pages = new Map([['crash-page-token', PAGE]]);
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://graph').pathname;
      const json = (body: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (path === `/v21.0/${PHONE_NUMBER_ID}`) return json({ id: PHONE_NUMBER_ID, display_phone_number: '+55 11 4000-0000', verified_name: 'Loja' });
      if (path === `/v21.0/${WABA_ID}/phone_numbers`) return json({ data: [{ id: PHONE_NUMBER_ID }] });
      if (!graphOwnership(pages, req, res)) {
        res.writeHead(404);
        res.end('{}');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v21.0`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** One inbound message through each webhook route: the route, its body and headers, and the text to find stored. */
function webhookDeliveries(chatappId: number) {
  const signed = (payload: unknown) => {
    const raw = JSON.stringify(payload);
    return { raw, headers: { 'x-hub-signature-256': `sha256=${createHmac('sha256', APP_SECRET).update(raw).digest('hex')}` } };
  };
  const time = Date.now();
  const meta = signed({
    object: 'page',
    entry: [
      {
        id: PAGE,
        time,
        messaging: [{ sender: { id: 'PSID-CRASH' }, recipient: { id: PAGE }, timestamp: time, message: { mid: 'm_crash_meta', text: 'crash meta' } }],
      },
    ],
  });
  const bizchat = signed({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: WABA_ID,
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: { display_phone_number: '551140000000', phone_number_id: PHONE_NUMBER_ID },
              messages: [
                { from: '5511988880001', id: 'wamid.CRASH1', timestamp: String(Math.floor(time / 1000)), type: 'text', text: { body: 'crash bizchat' } },
              ],
            },
          },
        ],
      },
    ],
  });
  return [
    { path: '/webhook/', body: meta.raw, headers: meta.headers, text: 'crash meta' },
    { path: '/', body: bizchat.raw, headers: bizchat.headers, text: 'crash bizchat' },
    {
      path: '/api/chatapp-microservice/webhook',
      headers: { 'x-webhook-secret': MICRO_SECRET },
      text: 'crash microservice',
      body: JSON.stringify({
        chatappId,
        events: [{ type: 'InboundMessage', providerMessageId: 'micro-crash-1', from: '5511988880002', body: 'crash microservice' }],
      }),
    },
  ];
}

/**
 * Each webhook route answers 200 only once the delivery is in the database: the backend killed
 * the moment the answer arrives stores the message after its restart, once (Meta never sends a
 * delivery again once it was answered 200). One process per route, restarted on the same data.
 */
function webhookCrashes(name: string, makeTarget: () => ProcessTarget | Promise<ProcessTarget | null>) {
  describe(`Crash durability of webhook deliveries: ${name}`, function () {
    this.timeout(240_000);
    let target: ProcessTarget | null = null;
    let graph: Awaited<ReturnType<typeof fakeGraph>>;
    let backend: Service | undefined;
    let port: number;
    const url = () => `http://127.0.0.1:${port}`;

    before(async function () {
      target = await makeTarget();
      if (!target) return this.skip();
      graph = await fakeGraph();
      port = await freePort();
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed' && backend) process.stderr.write(`--- backend\n${backend.output.join('').slice(-6000)}\n`);
    });
    after(async () => {
      await backend?.kill('SIGTERM');
      await target?.dispose();
      await graph?.close();
    });

    async function start() {
      backend = new Service('packages/backend/src/main.ts', {
        ...target!.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        ADMIN_PASSWORD: ADMIN.password,
        CHANNEL_CONNECTORS: 'sandbox',
        JWT_SECRET: 'crash-durability-secret-crash-durability-0123',
        OUTBOX_RELAY_INTERVAL_MS: '200',
        META_GRAPH_URL: graph.url,
        META_APP_SECRET: APP_SECRET,
        CHATAPP_MICROSERVICE_SECRET: MICRO_SECRET,
      });
      backend.start();
      await eventually('the backend', async () => (await fetch(`${url()}/version`).catch(() => null))?.ok === true, 60_000);
      const login = await client(url()).post('/auth/login', ADMIN);
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      return client(url(), login.body.token as string);
    }

    it('stores once, after a restart, each delivery answered 200 by /webhook/, / and the microservice webhook just before a SIGKILL', async () => {
      let admin = await start();
      const created = await Promise.all([
        admin.post('/chatapp/', { name: 'Crash microservice', provider: 'sandbox' }),
        admin.post('/socialnet/', { name: 'Crash page', provider: 'sandbox', externalId: PAGE, secrets: { pageAccessToken: 'crash-page-token' } }),
        admin.post('/chatapp/', {
          name: 'Crash number',
          kind: 'bizchat',
          externalId: PHONE_NUMBER_ID,
          secrets: { accessToken: 'crash-token', wabaId: WABA_ID },
        }),
      ]);
      for (const c of created) expect(c.status, JSON.stringify(c.body)).to.equal(201);
      const deliveries = webhookDeliveries(created[0]!.body.id as number);
      for (const d of deliveries) {
        const res = await fetch(`${url()}${d.path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...d.headers }, body: d.body });
        expect(res.status, `${d.path}: ${await res.text()}`).to.equal(200);
        await backend!.kill('SIGKILL');
        admin = await start();
      }
      const texts = deliveries.map((d) => d.text).sort();
      let shown: string[] = [];
      await eventually(
        'every delivery in its ticket',
        async () => {
          shown = ((await admin.get('/tickets?showAll=true')).body.tickets as Array<{ lastMessage: string }>).map((k) => k.lastMessage);
          return texts.every((t) => shown.includes(t));
        },
        30_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}: lost ${texts.filter((t) => !shown.includes(t)).join(', ')}`);
      });
      await backend!.kill('SIGTERM');
      const stored = await target!.query(`select body, count(*)::int as n from messages where not from_me and body like 'crash %' group by body order by body`);
      expect(stored.map((s) => [s.body, Number(s.n)])).to.deep.equal(texts.map((t) => [t, 1]));
    });
  });
}

webhookCrashes('embedded default (PGlite, in-process broker)', () => migratedEmbeddedTarget('sd-crash-webhooks-'));
webhookCrashes('PostgreSQL and NATS', () => postgresTarget('sd-crash-webhooks-pg-'));

describe('Two embedded instances on one DATA_DIR', function () {
  this.timeout(90_000);
  it('the second refuses to start with one line naming DATA_DIR', async () => {
    const target = await migratedEmbeddedTarget('sd-two-dirs-');
    const port = await freePort();
    const env = { ...target.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_PASSWORD: ADMIN.password };
    const first = new Service('packages/backend/src/main.ts', env);
    try {
      first.start();
      await eventually('the first backend', async () => (await fetch(`http://127.0.0.1:${port}/version`).catch(() => null))?.ok === true, 60_000);
      const second = spawn(process.execPath, [builtEntry('packages/backend/src/main.ts')], {
        cwd: ROOT,
        env: { ...process.env, ...env, PORT: String(await freePort()) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      second.stdout.on('data', (d) => {
        output += String(d);
      });
      second.stderr.on('data', (d) => {
        output += String(d);
      });
      const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
      expect(code).to.not.equal(0);
      expect(output).to.contain('DATA_DIR').and.contain('in use');
      expect((await fetch(`http://127.0.0.1:${port}/version`)).ok, 'the first one still serves').to.equal(true);
    } finally {
      await first.kill('SIGTERM');
      await target.dispose();
    }
  });
});
