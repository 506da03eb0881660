import { readFileSync } from 'node:fs';
import { Target } from '../lib/target.js';
import { natsServerBinary, sleep } from '../lib/proc.js';
import { productTree } from '../lib/tree.js';
import { api } from '../lib/http.js';
import { uniqueToken } from '../lib/setup.js';

const ticks = (pid: number) => { const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' '); return Number(f[11]) + Number(f[12]); };
async function cpu(label: string, t: Target, ms = 3000) {
  const b0 = ticks(t.backend.pid!); const r0 = t.runtime?.pid ? ticks(t.runtime.pid) : 0;
  await sleep(ms);
  const b1 = ticks(t.backend.pid!); const r1 = t.runtime?.pid ? ticks(t.runtime.pid) : 0;
  console.log(label, 'backend cpu %', ((b1 - b0) / (ms / 10)).toFixed(0), 'runtime cpu %', ((r1 - r0) / (ms / 10)).toFixed(0));
}
const tree = productTree('HEAD');
const kind = (process.argv[2] ?? 'postgres') as 'postgres' | 'embedded';
const t = new Target({ kind, databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres', natsBinary: natsServerBinary(), root: tree.root, log: console.log });
try {
  await t.start();
  await cpu('idle', t);
  const c = api(t.baseUrl, t.token);
  const plans = await c.get('/plans/all');
  for (const p of plans) await c.put(`/plans/${p.id}`, { connections: 1000 });
  for (let i = 0; i < Number(process.argv[3] ?? 0); i++) await c.post('/chatapp/', { name: `S${i}`, provider: 'sandbox', token: uniqueToken('s' + i) });
  await cpu('after sessions', t);
  await cpu('after sessions', t);
  for (let i = 0; i < 5; i++) { const t0 = performance.now(); await c.get('/version'); const t1 = performance.now(); await c.get('/tickets'); console.log('version', (t1 - t0).toFixed(1), 'tickets', (performance.now() - t1).toFixed(1)); }
  console.log(t.backend.tail(20));
} finally { await t.close(); tree.cleanup(); }
