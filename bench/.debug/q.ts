import { readFileSync } from 'node:fs';
import { Target } from '../lib/target.js';
import { natsServerBinary, sleep } from '../lib/proc.js';
import { productTree } from '../lib/tree.js';
import { api } from '../lib/http.js';
import { messengerDelivery, metaSignature, connectedSandbox, mobile } from '../lib/setup.js';
import { NamespaceObserver, messageKeys, messageFrames } from '../lib/namespace.js';

const tree = productTree('HEAD');
const t = new Target({ kind: 'postgres', databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres', natsBinary: natsServerBinary(), root: tree.root, log: console.log });
const dump = async (label: string, n: number) => {
  for (const [role, pid] of [['backend', t.backend.pid], ['runtime', t.runtime?.pid]] as const) {
    process.kill(pid!, 'SIGUSR2'); await sleep(300);
    const rows = JSON.parse(readFileSync(`/tmp/queries-${pid}.json`, 'utf8')) as Array<[string, number]>;
    const total = rows.reduce((a, r) => a + r[1], 0);
    console.log(`\n== ${label} ${role}: ${total} statements for ${n} = ${(total / n).toFixed(1)} each`);
    for (const [q, c] of rows.slice(0, 25)) console.log(String((c / n).toFixed(2)).padStart(6), q);
  }
};
try {
  await t.start();
  const c = api(t.baseUrl, t.token);
  await c.post('/socialnet/', { name: 'Bench page', provider: 'sandbox', externalId: 'BENCH-PAGE', secrets: { pageAccessToken: 'x' } });
  const token = 'bench-send-token-0123456789abcdef';
  await connectedSandbox(t, 'Send', token);
  await sleep(1000);
  const obs = await NamespaceObserver.open(`${t.wsBase}/1?token=${t.token}`, messageKeys, messageFrames);
  await dump('warm', 1);
  const N = 50;
  for (let i = 0; i < N; i++) {
    const mid = `m_dbg_${i}`;
    const body = messengerDelivery('BENCH-PAGE', `PSID-${i}`, mid, `hello ${i}`);
    await fetch(`${t.baseUrl}/webhook/`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body) }, body }).then((r) => r.text());
    await obs.wait(`in:${mid}`, 5000);
  }
  await sleep(500);
  await dump('inbound (new contact each)', N);
  for (let i = 0; i < N; i++) {
    const r = await fetch(`${t.baseUrl}/api/messages/send`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body: JSON.stringify({ number: mobile(i), body: `x ${i}` }) });
    const j = await r.json() as { messageId: string };
    await obs.wait(`delivered:${j.messageId}`, 5000);
  }
  await sleep(1500);
  await dump('send → delivered (new number each)', N);
  for (let i = 0; i < N; i++) await c.get('/tickets?pageNumber=1');
  await dump('GET /tickets as super admin', N);
  obs.close();
} finally { await t.close(); tree.cleanup(); }
