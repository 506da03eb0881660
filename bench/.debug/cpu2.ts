import { readFileSync } from 'node:fs';
import { Target } from '../lib/target.js';
import { natsServerBinary, sleep, cpuMs } from '../lib/proc.js';
import { productTree } from '../lib/tree.js';
import { api } from '../lib/http.js';

async function cpu(label: string, t: Target, ms = 2000) {
  const b0 = cpuMs(t.backend.pid!)!; const r0 = t.runtime?.pid ? cpuMs(t.runtime.pid)! : 0;
  await sleep(ms);
  const b1 = cpuMs(t.backend.pid!)!; const r1 = t.runtime?.pid ? cpuMs(t.runtime.pid)! : 0;
  console.log(label, 'backend cpu %', ((b1 - b0) / ms * 100).toFixed(0), 'runtime cpu %', ((r1 - r0) / ms * 100).toFixed(0));
}
const tree = productTree('HEAD');
const kind = (process.argv[2] ?? 'postgres') as 'postgres' | 'embedded';
const t = new Target({ kind, databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres', natsBinary: natsServerBinary(), root: tree.root, log: console.log });
try {
  await t.start();
  for (let i = 0; i < 5; i++) await cpu('idle', t);
  const c = api(t.baseUrl, t.token);
  const page = await c.post('/socialnet/', { name: 'Bench page', provider: 'sandbox', externalId: 'BENCH-PAGE', secrets: { pageAccessToken: 'bench-page-token' } });
  console.log(page);
  for (let i = 0; i < 5; i++) await cpu('after socialnet', t);
  console.log(JSON.stringify(await c.get('/chatapp/')));
  console.log(t.backend.tail(20)); console.log(t.runtime?.tail(20));
} finally { await t.close(); tree.cleanup(); }
