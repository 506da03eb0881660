import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { client } from '../support/test-backend.js';
import { openNamespace, type Frame } from '../support/namespace-client.js';
import { eventually } from '../support/eventually.js';
import { freePort, freshDatabase, privateNatsServer, type NatsServer, Service } from './processes.js';

const ADMIN = { email: 'admin@admin.com', password: 'scale-out-admin-pass' };
const TOKEN = 'scale-out-connection-token-0123';
const LEASE_TTL_MS = 4000;

/**
 * Two backends and two channel runtimes as four processes on real NATS JetStream, PostgreSQL and
 * Redis: the owner of a sandbox session is killed while messages flow both ways (every send is
 * answered by the sandbox contact), and an operator connected to the other backend sees it all.
 */
describe('Scale-out: two backends and two channel runtimes', function () {
  this.timeout(240_000);
  const dbBase = integrationUrl('TEST_DATABASE_URL');
  const redisBase = integrationUrl('TEST_REDIS_URL');
  let nats: NatsServer;
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const backends: Array<{ service: Service; url: string }> = [];
  const runtimes = new Map<string, Service>();
  let dataDir: string;

  before(async function () {
    if (!dbBase || !redisBase) return this.skip();
    const server = await privateNatsServer();
    if (!server) return this.skip();
    nats = server;
    db = await freshDatabase(dbBase);
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-scale-'));
    // A Redis database of its own: the realtime sequence and replay window are shared through it.
    const redis = new URL(redisBase);
    redis.pathname = `/${9 + (process.pid % 6)}`;
    const common = { DATABASE_URL: db.url, BROKER_URL: nats.url, LOG_LEVEL: 'warn', CHANNEL_CONNECTORS: 'sandbox', SEND_DEADLINE_MS: '120000' };
    for (const name of ['one', 'two']) {
      const port = await freePort();
      const service = new Service('packages/backend/src/main.ts', {
        ...common,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: path.join(dataDir, `backend-${name}`),
        REDIS_URL: redis.toString(),
        JWT_SECRET: 'scale-out-secret-scale-out-secret-0123',
        ADMIN_PASSWORD: ADMIN.password,
        OUTBOX_RELAY_INTERVAL_MS: '200',
      });
      backends.push({ service, url: `http://127.0.0.1:${port}` });
      service.start();
      // One at a time: the first migrates the database, the second finds it ready.
      await eventually(`backend ${name}`, async () => (await fetch(`${backends.at(-1)!.url}/version`).catch(() => null))?.ok ?? false, 60_000);
    }
    for (const id of ['runtime-a', 'runtime-b']) {
      const service = new Service('packages/channel-runtime/src/main.ts', {
        ...common,
        DATA_DIR: path.join(dataDir, id),
        RUNTIME_INSTANCE_ID: id,
        SANDBOX_ECHO: 'true',
        LEASE_TTL_MS: String(LEASE_TTL_MS),
        SESSION_SYNC_INTERVAL_MS: '500',
        BROKER_ACK_WAIT_MS: '3000',
      });
      runtimes.set(id, service);
      service.start();
    }
    await db.connect();
  });

  afterEach(function () {
    if (this.currentTest?.state !== 'failed') return;
    for (const [name, s] of [...runtimes, ...backends.map((b, i) => [`backend ${i + 1}`, b.service] as const)]) {
      process.stderr.write(`--- ${name}\n${s.output.join('').slice(-6000)}\n`);
    }
  });

  after(async () => {
    for (const s of runtimes.values()) await s.kill('SIGTERM');
    for (const b of backends) await b.service.kill('SIGTERM');
    await db?.drop();
    await nats?.dispose();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  });

  const owner = async (chatappId: number) =>
    (await db.query<{ owner: string }>('select owner from channel.session_leases where chatapp_id = $1 and expires_at > now()', [chatappId]))[0]?.owner ?? null;
  const statuses = (ids: string[]) => db.query<{ id: string; status: string }>('select id, status from messages where id = any($1::uuid[])', [ids]);
  const deliveries = () =>
    db.query<{ idempotency_key: string; n: string }>('select idempotency_key, count(*) as n from channel.sandbox_sent group by idempotency_key');
  const echoes = () =>
    db.query<{ provider_message_id: string; n: string }>(
      "select provider_message_id, count(*) as n from messages where provider_message_id like 'echo-%' group by provider_message_id",
    );

  it('keeps every send and reply once, and every event in front of an operator on the other backend, when the session owner dies', async () => {
    const [one, two] = backends as [(typeof backends)[0], (typeof backends)[0]];
    const login = await client(one.url).post('/auth/login', ADMIN);
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    const adminOne = client(one.url, login.body.token);
    const adminTwo = client(two.url, login.body.token);
    const created = await adminOne.post('/chatapp/', { name: 'Scaled sandbox', provider: 'sandbox', token: TOKEN });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const chatappId = created.body.id as number;
    await eventually('CONNECTED, as the other backend sees it', async () => (await adminTwo.get(`/chatapp/${chatappId}`)).body.status === 'CONNECTED', 60_000);
    const first = await eventually('an owner', () => owner(chatappId), 30_000);
    expect(['runtime-a', 'runtime-b']).to.include(first);

    // The operator watches through backend two; sends arrive through both backends.
    const ns = await openNamespace(two.url, 1, login.body.token);
    const ids: string[] = [];
    const send = async (via: string, body: string) => {
      const res = await client(via, TOKEN).post('/api/messages/send', { number: '5511999990000', body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      ids.push(res.body.messageId as string);
    };
    for (let i = 0; i < 8; i++) await send(i % 2 ? two.url : one.url, `before the crash ${i}`);
    const killedAt = Date.now();
    await runtimes.get(first)!.kill('SIGKILL');
    for (let i = 0; i < 8; i++) await send(i % 2 ? two.url : one.url, `after the crash ${i}`);

    const survivor = first === 'runtime-a' ? 'runtime-b' : 'runtime-a';
    await eventually('the other runtime to take the session over', async () => (await owner(chatappId)) === survivor, 30_000);
    const takeoverMs = Date.now() - killedAt;
    expect(takeoverMs).to.be.below(30_000);

    await eventually(
      'every send delivered',
      async () => (await statuses(ids)).filter((m) => ['sent', 'delivered', 'read'].includes(m.status)).length === ids.length,
      120_000,
    );
    expect((await statuses(ids)).filter((m) => m.status === 'failed')).to.deep.equal([]);
    const sentOnce = (await deliveries()).filter((r) => ids.includes(r.idempotency_key));
    expect(sentOnce.map((r) => r.idempotency_key).sort()).to.deep.equal([...ids].sort());
    expect(
      sentOnce.every((r) => Number(r.n) === 1),
      JSON.stringify(sentOnce),
    ).to.equal(true);

    // Every send is answered: each answer stored once.
    await eventually('every reply stored', async () => (await echoes()).length === ids.length, 60_000);
    const replies = await echoes();
    expect(replies.map((r) => r.provider_message_id).sort()).to.deep.equal(ids.map((id) => `echo-${id}`).sort());
    expect(replies.every((r) => Number(r.n) === 1)).to.equal(true);

    // The operator on backend two saw every reply and every send reach `read`, in one increasing sequence.
    const replyIds = await db.query<{ id: string }>("select id from messages where provider_message_id like 'echo-%'");
    for (const { id } of replyIds) await ns.waitFor((f) => f.data.action === 'create' && f.data.message?.id === id, 30_000);
    for (const id of ids) await ns.waitFor((f) => f.data.action === 'update' && f.data.message?.id === id && f.data.message?.status === 'read', 30_000);
    const seqs = ns.frames.map((f: Frame) => f.seq);
    for (let i = 1; i < seqs.length; i++) expect(seqs[i], `seq after ${seqs[i - 1]}`).to.be.above(seqs[i - 1]!);
    const lastSeq = seqs.at(-1)!;
    ns.close();

    // Reconnecting to the other backend with ?since= replays what was missed meanwhile.
    await send(one.url, 'while the operator was away');
    const missed = ids.at(-1)!;
    await eventually('the last send read', async () => (await statuses([missed]))[0]?.status === 'read', 60_000);
    const again = await openNamespaceSince(one.url, login.body.token, lastSeq);
    const replayed = await again.waitFor((f) => f.data.message?.id === missed && f.data.action === 'create', 10_000);
    expect(replayed.seq).to.be.above(lastSeq);
    const replaySeqs = again.frames.map((f) => f.seq);
    expect(replaySeqs[0]).to.equal(lastSeq + 1);
    for (let i = 1; i < replaySeqs.length; i++) expect(replaySeqs[i]).to.equal(replaySeqs[i - 1]! + 1);
    again.close();
  });
});

async function openNamespaceSince(baseUrl: string, token: string, since: number) {
  return openNamespace(baseUrl, 1, `${token}&since=${since}`);
}
