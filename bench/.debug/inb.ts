import { Target } from '../lib/target.js';
import { natsServerBinary, sleep } from '../lib/proc.js';
import { productTree } from '../lib/tree.js';
import { api } from '../lib/http.js';
import { messengerDelivery, metaSignature } from '../lib/setup.js';
import { NamespaceObserver, messageKeys, messageFrames } from '../lib/namespace.js';

const tree = productTree('HEAD');
const kind = (process.argv[2] ?? 'postgres') as 'postgres' | 'embedded';
const t = new Target({ kind, profileDir: process.env.PROF || undefined, databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres', natsBinary: natsServerBinary(), root: tree.root, log: console.log });
try {
  await t.start();
  const c = api(t.baseUrl, t.token);
  await c.post('/socialnet/', { name: 'Bench page', provider: 'sandbox', externalId: 'BENCH-PAGE', secrets: { pageAccessToken: 'x' } });
  await sleep(1000);
  const obs = await NamespaceObserver.open(`${t.wsBase}/1?token=${t.token}`, messageKeys, messageFrames);
  const all: string[] = [];
  obs['ws' as never];
  for (let i = 0; i < Number(process.env.N ?? 30); i++) {
    const mid = `m_dbg_${i}`;
    const body = messengerDelivery('BENCH-PAGE', `PSID-${i % 3}`, mid, `hello ${i}`);
    const t0 = performance.now();
    const res = await fetch(`${t.baseUrl}/webhook/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body) }, body });
    await res.text();
    const t1 = performance.now();
    const at = await obs.wait(`in:${mid}`, 5000);
    all.push(`${(t1 - t0).toFixed(1)}/${at === null ? 'timeout' : (at - t0).toFixed(1)}`);
  }
  console.log('http/event ms:', all.slice(-30).join(' '));
  console.log(t.backend.tail(10));
  obs.close();
} finally { await t.close(); tree.cleanup(); }
