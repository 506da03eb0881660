import { execSync } from 'node:child_process';
import { Target } from '../lib/target.js';
import { natsServerBinary, sleep, cpuMs } from '../lib/proc.js';
import { productTree } from '../lib/tree.js';
import { connectedSandbox, mobile } from '../lib/setup.js';
import { cannon } from '../lib/load.js';

const tree = productTree('HEAD');
const kind = (process.argv[2] ?? 'postgres') as 'postgres' | 'embedded';
const conns = Number(process.argv[3] ?? 32);
const t = new Target({ kind, databaseUrl: 'postgres://postgres@127.0.0.1:5432/postgres', natsBinary: natsServerBinary(), root: tree.root, log: console.log });
const pgPids = () => execSync('pgrep -u postgres postgres || true').toString().trim().split('\n').filter(Boolean).map(Number);
const snap = () => ({ b: cpuMs(t.backend.pid!)!, r: t.runtime?.pid ? cpuMs(t.runtime.pid)! : 0, pg: pgPids().reduce((a, p) => a + (cpuMs(p) ?? 0), 0), me: cpuMs(process.pid)!, n: t.nats?.pid ? cpuMs(t.nats.pid)! : 0 });
try {
  await t.start();
  const token = 'bench-send-token-0123456789abcdef';
  await connectedSandbox(t, 'Send', token);
  await sleep(3000);
  let i = 0;
  for (const round of [1, 2]) {
    const s0 = snap(); const t0 = Date.now();
    const r = await cannon({ url: `${t.baseUrl}/api/messages/send`, method: 'POST', connections: conns, durationS: 5, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, setupRequest: (req) => ({ ...req, body: JSON.stringify({ number: mobile(i++ % 10000), body: `x ${i}` }) }) });
    const s1 = snap(); const ms = Date.now() - t0;
    console.log(`round ${round}: ${r.throughput.toFixed(0)} req/s p50 ${r.latency.p50.toFixed(1)} p99 ${r.latency.p99.toFixed(1)}; cpu% backend ${((s1.b - s0.b) / ms * 100).toFixed(0)} runtime ${((s1.r - s0.r) / ms * 100).toFixed(0)} postgres ${((s1.pg - s0.pg) / ms * 100).toFixed(0)} nats ${((s1.n - s0.n) / ms * 100).toFixed(0)} runner ${((s1.me - s0.me) / ms * 100).toFixed(0)}`);
    await sleep(15000);
  }
} finally { await t.close(); tree.cleanup(); }
