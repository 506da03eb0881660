/**
 * SQL statements per operation on PostgreSQL + NATS: `node --conditions=source --import tsx
 * bench/tools/statements.ts [--ref HEAD] [--n 50]`. Starts backend and runtime with a preload that
 * counts what goes through `pg`, runs each operation `n` times one at a time, and prints the
 * statements per operation by shape. A profiling aid for the bench's findings, not a benchmark.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { api } from '../lib/http.js';
import { messageFrames, messageKeys, NamespaceObserver } from '../lib/namespace.js';
import { natsServerBinary, sleep } from '../lib/proc.js';
import { connectedSandbox, messengerDelivery, metaSignature, mobile, uniqueToken } from '../lib/setup.js';
import { Target } from '../lib/target.js';
import { pageToken } from '../lib/fake-graph.js';
import { productTree } from '../lib/tree.js';

const { values: args } = parseArgs({ options: { ref: { type: 'string' }, n: { type: 'string', default: '50' } } });
const n = Number(args.n);
const out = mkdtempSync(path.join(os.tmpdir(), 'sd-statements-'));
process.env.BENCH_STATEMENTS_DIR = out;
const preload = fileURLToPath(new URL('./count-queries.mjs', import.meta.url));
const tree = productTree(args.ref);
const target = new Target({
  kind: 'postgres',
  databaseUrl: process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres',
  ...(process.env.BENCH_NATS_URL ? { natsUrl: process.env.BENCH_NATS_URL } : {}),
  natsBinary: natsServerBinary(),
  root: tree.root,
  nodeArgs: ['--import', preload],
  log: (l) => process.stdout.write(`${l}\n`),
});

async function counted(label: string, work: () => Promise<void>) {
  const reset = async () => {
    for (const pid of [target.backend.pid, target.runtime?.pid]) if (pid) process.kill(pid, 'SIGUSR2');
    await sleep(300);
  };
  await reset();
  await work();
  await sleep(1500);
  for (const [role, pid] of [
    ['backend', target.backend.pid],
    ['runtime', target.runtime?.pid],
  ] as const) {
    if (!pid) continue;
    process.kill(pid, 'SIGUSR2');
    await sleep(300);
    const rows = JSON.parse(readFileSync(path.join(out, `${pid}.json`), 'utf8')) as Array<[string, number]>;
    const total = rows.reduce((a, [, c]) => a + c, 0);
    process.stdout.write(`\n${label} — ${role}: ${(total / n).toFixed(1)} statements per operation\n`);
    for (const [shape, c] of rows.filter(([, c]) => c / n >= 0.05).slice(0, 20)) process.stdout.write(`  ${(c / n).toFixed(2).padStart(6)}  ${shape}\n`);
  }
}

try {
  await target.start();
  const admin = api(target.baseUrl, target.token);
  await admin.post('/socialnet/', { name: 'Bench page', provider: 'sandbox', externalId: 'BENCH-PAGE', secrets: { pageAccessToken: pageToken('BENCH-PAGE') } });
  const token = uniqueToken('statements');
  await connectedSandbox(target, 'Bench send', token);
  const observer = await NamespaceObserver.open(`${target.wsBase}/1?token=${target.token}`, messageKeys, messageFrames);
  await counted('inbound webhook → message and event (new contact each)', async () => {
    for (let i = 0; i < n; i++) {
      const body = messengerDelivery('BENCH-PAGE', `PSID-${i}`, `m_stmt_${i}`, `Olá ${i}`);
      await fetch(`${target.baseUrl}/webhook/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body) },
        body,
      }).then((r) => r.text());
      await observer.wait(`in:m_stmt_${i}`, 10_000);
    }
  });
  await counted('POST /api/messages/send → delivered and read (new number each)', async () => {
    for (let i = 0; i < n; i++) {
      const res = await fetch(`${target.baseUrl}/api/messages/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ number: mobile(i), body: `Pedido ${i}` }),
      });
      const { messageId } = (await res.json()) as { messageId: string };
      await observer.wait(`delivered:${messageId}`, 10_000);
    }
  });
  await counted('GET /tickets page 1 (super admin, 20 tickets on the page)', async () => {
    for (let i = 0; i < n; i++) await admin.get('/tickets?pageNumber=1');
  });
  observer.close();
} finally {
  await target.close();
  tree.cleanup();
  rmSync(out, { recursive: true, force: true });
}
