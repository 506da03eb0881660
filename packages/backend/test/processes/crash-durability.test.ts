import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { openDatabase } from '@servicedesk/adapters-persistence';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { client } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';
import { freePort, freshDatabase, privateNatsServer, Service } from './processes.js';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
const ADMIN = { email: 'admin@admin.com', password: 'crash-durability-admin' };
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

interface Request { readonly key: string; readonly body: string; answer?: { messageId: string; ticketId: number } }

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
        ...target.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_PASSWORD: ADMIN.password, CHANNEL_CONNECTORS: 'sandbox',
        JWT_SECRET: 'crash-durability-secret-crash-durability-0123', OUTBOX_RELAY_INTERVAL_MS: '200', SEND_DEADLINE_MS: '600000',
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
            try { r.answer = await send(r); } catch { return; }
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
      await eventually('every send reported sent by the channel runtime', async () => {
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
      }, 90_000).catch((err: Error) => {
        // Which sends, and in what state, if a run ever misses one (diagnosis of a real loss).
        throw new Error(`${err.message}: ${[...notSent].map(([id, state]) => `${expected.get(id)!.key} ${state}`).join(', ')}`);
      });
      await backend.kill('SIGTERM');
      const stored = await target.query("select body, count(*)::int as n from messages where from_me and body like 'round %' group by body");
      expect(stored.filter((s) => Number(s.n) !== 1), 'messages stored twice').to.deep.equal([]);
      expect(stored.map((s) => s.body).sort()).to.deep.equal(requests.map((r) => r.body).sort());
      const ledger = await target.query('select idempotency_key as key from channel.sandbox_sent');
      const delivered = new Set(ledger.map((l) => String(l.key)));
      expect([...expected.keys()].filter((id) => !delivered.has(id)), 'accepted but never delivered').to.deep.equal([]);
      const keys = await target.query("select count(*)::int as n from idempotency_keys where key like 'r%-w%'");
      expect(Number(keys[0]!.n)).to.equal(requests.length);
    });
  });
}

crashRounds('embedded default (PGlite, in-process broker)', async () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-crash-'));
  return {
    env: { DATA_DIR: dataDir },
    async query(sql) {
      const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
      try { return await db.orm.em.fork().getConnection().execute(sql); } finally { await db.close(); }
    },
    async dispose() { rmSync(dataDir, { recursive: true, force: true }); },
  };
});

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
    async dispose() { await db.drop(); await nats.dispose(); rmSync(dataDir, { recursive: true, force: true }); },
  };
});

describe('Two embedded instances on one DATA_DIR', function () {
  this.timeout(90_000);
  it('the second refuses to start with one line naming DATA_DIR', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-two-dirs-'));
    const port = await freePort();
    const env = { DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ADMIN_PASSWORD: ADMIN.password };
    const first = new Service('packages/backend/src/main.ts', env);
    try {
      first.start();
      await eventually('the first backend', async () => (await fetch(`http://127.0.0.1:${port}/version`).catch(() => null))?.ok === true, 60_000);
      const second = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(ROOT, 'packages/backend/src/main.ts')], {
        cwd: ROOT, env: { ...process.env, ...env, PORT: String(await freePort()) }, stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      second.stdout.on('data', (d) => { output += String(d); });
      second.stderr.on('data', (d) => { output += String(d); });
      const code = await new Promise<number | null>((resolve) => second.once('exit', resolve));
      expect(code).to.not.equal(0);
      expect(output).to.contain('DATA_DIR').and.contain('in use');
      expect((await fetch(`http://127.0.0.1:${port}/version`)).ok, 'the first one still serves').to.equal(true);
    } finally {
      await first.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
