import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { client } from '../support/test-backend.js';
import { freePort, freshDatabase, privateNatsServer, type NatsServer, Service } from './processes.js';
import { eventually } from '../support/eventually.js';

const ADMIN = { email: 'admin@admin.com', password: 'two-process-admin-pass' };
const TOKEN = 'two-process-connection-token-0123';

/**
 * Backend and channel runtime as two processes over real NATS JetStream and PostgreSQL: the
 * deployment the README describes, including a crash of the runtime and an outage of NATS.
 */
describe('Two processes over real NATS and PostgreSQL', function () {
  this.timeout(180_000);
  const dbBase = integrationUrl('TEST_DATABASE_URL');
  let nats: NatsServer;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  let backend: Service;
  let runtime: Service;
  let baseUrl: string;
  let api: ReturnType<typeof client>;
  let dataDir: string;

  before(async function () {
    if (!dbBase) return this.skip();
    const server = await privateNatsServer();
    if (!server) return this.skip();
    nats = server;
    db = await freshDatabase(dbBase);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-two-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const common = { DATABASE_URL: db.url, BROKER_URL: nats.url, LOG_LEVEL: 'warn', CHANNEL_CONNECTORS: 'sandbox' };
    backend = new Service('packages/backend/src/main.ts', {
      ...common,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(dataDir, 'backend'),
      JWT_SECRET: 'two-process-secret-two-process-secret-0123',
      ADMIN_PASSWORD: ADMIN.password,
      OUTBOX_RELAY_INTERVAL_MS: '200',
    });
    runtime = new Service('packages/channel-runtime/src/main.ts', { ...common, DATA_DIR: path.join(dataDir, 'runtime'), SEND_DEADLINE_MS: '120000' });
    backend.start();
    await eventually('the backend', async () => (await fetch(`${baseUrl}/version`)).ok, 30_000);
    runtime.start();
    await db.connect();
    const login = await client(baseUrl).post('/auth/login', ADMIN);
    api = client(baseUrl, login.body.token);
  });

  after(async () => {
    await runtime?.kill('SIGTERM');
    await backend?.kill('SIGTERM');
    await db?.drop();
    await nats?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  async function send(body: string) {
    const res = await client(baseUrl, TOKEN).post('/api/messages/send', { number: '5511999990000', body });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.messageId as string;
  }

  const statuses = (ids: string[]) => db.query<{ id: string; status: string }>('select id, status from messages where id = any($1::uuid[])', [ids]);
  const deliveries = () =>
    db.query<{ idempotency_key: string; n: string }>('select idempotency_key, count(*) as n from channel.sandbox_sent group by idempotency_key');

  it('connects a sandbox session through the runtime process, sends and receives acks', async () => {
    const created = await api.post('/chatapp/', { name: 'Two-process sandbox', provider: 'sandbox', token: TOKEN });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    await eventually('CONNECTED', async () => (await api.get(`/chatapp/${created.body.id}`)).body.status === 'CONNECTED', 30_000);
    const id = await send('hello from two processes');
    await eventually('read', async () => (await statuses([id]))[0]?.status === 'read', 30_000);
  });

  it('a runtime killed mid-send and restarted delivers every accepted send exactly once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await send(`before crash ${i}`));
    await runtime.kill('SIGKILL');
    for (let i = 0; i < 10; i++) ids.push(await send(`while down ${i}`));
    runtime.start();
    await eventually(
      'every send delivered',
      async () => (await statuses(ids)).filter((m) => ['sent', 'delivered', 'read'].includes(m.status)).length === ids.length,
      90_000,
    );
    const ledger = await deliveries();
    const ours = ledger.filter((r) => ids.includes(r.idempotency_key));
    expect(ours.map((r) => r.idempotency_key).sort()).to.deep.equal([...ids].sort());
    expect(ours.every((r) => Number(r.n) === 1)).to.equal(true);
    expect((await statuses(ids)).filter((m) => m.status === 'failed')).to.deep.equal([]);
  });

  it('sends made while NATS is down are accepted, and delivered once it is back', async () => {
    await nats.stop();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await send(`during outage ${i}`));
    expect((await statuses(ids)).every((m) => m.status === 'pending')).to.equal(true);
    await nats.start();
    await eventually('delivery after the outage', async () => (await statuses(ids)).every((m) => m.status === 'read'), 90_000);
    const ours = (await deliveries()).filter((r) => ids.includes(r.idempotency_key));
    expect(ours).to.have.length(ids.length);
    expect(ours.every((r) => Number(r.n) === 1)).to.equal(true);
  });
});
