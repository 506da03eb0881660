import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { openDatabase } from '@servicedesk/adapters-persistence';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { client } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';
import { freePort, freshDatabase, migratedDataDir, privateNatsServer, Service, SNAPSHOT_ADMIN } from './processes.js';

/** The admin of the migrated data dir the embedded test starts on (the PostgreSQL test seeds it). */
const ADMIN = SNAPSHOT_ADMIN;
const JWT_SECRET = 'schedule-processes-secret-schedule-processes-0123';
const COMMON = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  ADMIN_PASSWORD: ADMIN.password,
  CHANNEL_CONNECTORS: 'sandbox',
  JWT_SECRET,
  OUTBOX_RELAY_INTERVAL_MS: '200',
  SEND_DEADLINE_MS: '600000',
};

type Api = ReturnType<typeof client>;
type Row = Record<string, unknown>;

async function started(service: Service, url: string): Promise<Api> {
  service.start();
  await eventually('the backend', async () => (await fetch(`${url}/version`).catch(() => null))?.ok === true, 60_000);
  const login = await client(url).post('/auth/login', ADMIN);
  expect(login.status, JSON.stringify(login.body)).to.equal(200);
  return client(url, login.body.token as string);
}

/** A sandbox connection, once its session is CONNECTED, and `count` contacts. */
async function desk(api: Api, token: string, count: number, prefix: string) {
  const connection = await api.post('/chatapp/', { name: `Sandbox ${token}`, provider: 'sandbox', token });
  expect(connection.status, JSON.stringify(connection.body)).to.equal(201);
  const chatappId = connection.body.id as number;
  await eventually('the session CONNECTED', async () => (await api.get(`/chatapp/${chatappId}`)).body.status === 'CONNECTED', 60_000);
  const contacts: Array<{ id: number; number: string }> = [];
  for (let i = 0; i < count; i++) {
    const number = `${prefix}${String(i).padStart(2, '0')}`;
    const res = await api.post('/contacts', { name: `Cliente ${i}`, number });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    contacts.push({ id: res.body.id as number, number });
  }
  return { chatappId, contacts };
}

async function schedule(api: Api, fields: Record<string, unknown>): Promise<number> {
  const res = await api.post('/schedules', {
    openTicket: 'disabled',
    statusTicket: 'closed',
    intervalo: 1,
    valorIntervalo: 0,
    enviarQuantasVezes: 1,
    tipoDias: 4,
    ...fields,
  });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.id as number;
}

/** Each body once in `messages` and once in the sandbox's ledger (whose key is our message id). */
function expectOnce(messages: readonly Row[], ledger: readonly Row[], bodies: readonly string[]) {
  expect(messages.map((m) => String(m.body)).sort(), 'messages stored').to.deep.equal([...bodies].sort());
  expect(ledger.map((l) => String(l.key)).sort(), 'ledger deliveries, one per stored message').to.deep.equal(messages.map((m) => String(m.id)).sort());
}

/**
 * Schedules run by the backend as a real process against the sandbox connector, whose deliveries
 * are written to the `channel.sandbox_sent` ledger: a schedule whose moment passes while the backend
 * is down is sent once when it comes back, and two backends sharing PostgreSQL and NATS send each
 * due schedule once.
 */
describe('Schedules as processes', function () {
  this.timeout(120_000);
  const services: Service[] = [];
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') for (const s of services) process.stderr.write(`--- backend\n${s.output.join('').slice(-6000)}\n`);
    for (const s of services.splice(0)) await s.kill('SIGTERM');
  });

  it('a schedule whose moment passes while the backend is down is sent once after the restart (embedded default)', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-schedules-'));
    cpSync(await migratedDataDir(), dataDir, { recursive: true });
    try {
      const port = await freePort();
      const url = `http://127.0.0.1:${port}`;
      const backend = new Service('packages/backend/src/main.ts', { ...COMMON, PORT: String(port), DATA_DIR: dataDir });
      services.push(backend);
      let api = await started(backend, url);
      const { chatappId, contacts } = await desk(api, 'schedule-restart-token-0001', 1, '55119777100');
      const due = Date.now() + 4000;
      const id = await schedule(api, { contactId: contacts[0]!.id, chatappId, body: 'Lembrete durante a parada', sendAt: new Date(due).toISOString() });
      await backend.kill('SIGKILL');
      expect(Date.now(), 'the backend stopped before the moment').to.be.below(due);
      // Down across the moment.
      await new Promise((resolve) => setTimeout(resolve, due - Date.now() + 1000));
      const restartedAt = Date.now();
      api = await started(backend, url);
      await eventually('the schedule sent', async () => (await api.get(`/schedules/${id}`)).body.status === 'ENVIADA', 60_000);
      const shown = (await api.get(`/schedules/${id}`)).body;
      expect(shown.occurrences.map((o: Row) => [o.status, o.sent])).to.deep.equal([['sent', 1]]);
      await eventually(
        'the sandbox delivery acknowledged',
        async () => {
          const messages = (await api.get(`/messages/${shown.ticketId}`)).body.messages as Array<{ fromMe: boolean; ack: number }>;
          return messages.some((m) => m.fromMe && m.ack >= 1);
        },
        30_000,
      );
      await backend.kill('SIGTERM');
      const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
      try {
        const sql = (query: string) => db.orm.em.fork().getConnection().execute<Row[]>(query);
        const messages = await sql(`select id::text as id, body from messages where from_me and connection_id = ${chatappId}`);
        const ledger = await sql(`select idempotency_key as key, sent_at from channel.sandbox_sent where chatapp_id = ${chatappId}`);
        expectOnce(messages, ledger, ['Lembrete durante a parada']);
        expect(new Date(ledger[0]!.sent_at as string).getTime(), 'delivered after the restart').to.be.at.least(restartedAt);
      } finally {
        await db.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });

  it('two backends on PostgreSQL and NATS send each due schedule once', async function () {
    const base = integrationUrl('TEST_DATABASE_URL');
    if (!base) return this.skip();
    const nats = await privateNatsServer();
    if (!nats) return this.skip();
    const db = await freshDatabase(base);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-schedules-pg-'));
    try {
      const apis: Api[] = [];
      for (const name of ['one', 'two']) {
        const port = await freePort();
        const service = new Service('packages/backend/src/main.ts', {
          ...COMMON,
          PORT: String(port),
          DATA_DIR: path.join(dataDir, name),
          DATABASE_URL: db.url,
          BROKER_URL: nats.url,
          CHANNEL_RUNTIME: 'embedded',
        });
        services.push(service);
        // One at a time: the first migrates the database, the second finds it ready.
        apis.push(await started(service, `http://127.0.0.1:${port}`));
      }
      await db.connect();
      const { chatappId, contacts } = await desk(apis[0]!, 'schedule-two-backends-token-01', 10, '55119777200');
      // Ten schedules due at one moment, created through both backends.
      const due = new Date(Date.now() + 4000).toISOString();
      const bodies = contacts.map((_, i) => `Lembrete simultâneo ${i}`);
      const ids: number[] = [];
      for (const [i, c] of contacts.entries()) ids.push(await schedule(apis[i % 2]!, { contactId: c.id, chatappId, body: bodies[i], sendAt: due }));
      await eventually(
        'every schedule sent',
        async () => {
          const rows = await db.query<{ n: string }>(`select count(*) as n from schedules where status = 'ENVIADA' and id = any($1::int[])`, [ids]);
          return Number(rows[0]!.n) === ids.length;
        },
        60_000,
      );
      await eventually(
        'every delivery in the ledger',
        async () => {
          const rows = await db.query<{ n: string }>('select count(*) as n from channel.sandbox_sent where chatapp_id = $1', [chatappId]);
          return Number(rows[0]!.n) >= ids.length;
        },
        30_000,
      );
      const occurrences = await db.query<{ status: string; n: string }>('select status, count(*) as n from schedule_occurrences group by status');
      expect(occurrences.map((o) => [o.status, Number(o.n)])).to.deep.equal([['sent', ids.length]]);
      const messages = await db.query('select id::text as id, body from messages where from_me and connection_id = $1', [chatappId]);
      const ledger = await db.query('select idempotency_key as key from channel.sandbox_sent where chatapp_id = $1', [chatappId]);
      expectOnce(messages, ledger, bodies);
    } finally {
      for (const s of services.splice(0)) await s.kill('SIGTERM');
      await db.drop();
      await nats.dispose();
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    }
  });
});
