import WebSocket from 'ws';
import { both, ratioOfP99, type Ctx, type Row, type Scenario } from '../lib/context.js';
import { KeepAliveClient } from '../lib/http.js';
import { freePort, NodeService, reachable, sleep, until } from '../lib/proc.js';
import { now, summarize } from '../lib/stats.js';

/** Rounds before the measured ones (JIT, buffers). */
const WARM_UP = 3;

/** `count` websocket clients; each reports the frames matching `marker` to `onFrame`. */
async function openClients(url: string, count: number, marker: string, onFrame: (frame: Buffer) => void): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < count; i += 50) {
    const batch = Array.from(
      { length: Math.min(50, count - i) },
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
          ws.on('message', (raw: Buffer) => {
            if (raw.includes(marker)) onFrame(raw);
          });
          ws.once('open', () => resolve(ws));
          ws.once('error', reject);
        }),
    );
    sockets.push(...(await Promise.all(batch)));
  }
  return sockets;
}

/**
 * Rounds, one at a time: `trigger()` makes one frame go to every client; a round's latency runs
 * from just before the trigger to the moment the last client has the frame (bounded per round).
 */
async function rounds(count: number, clients: number, trigger: (round: number) => Promise<void>, arrivals: { n: number; last: number; first: number }) {
  const latencies: number[] = [];
  const spreads: number[] = [];
  let errors = 0;
  let started = now();
  for (let r = -WARM_UP; r < count; r++) {
    if (r === 0) started = now();
    arrivals.n = 0;
    arrivals.last = 0;
    arrivals.first = 0;
    const t0 = now();
    await trigger(r);
    const done = await until('every client to get the frame', async () => arrivals.n >= clients, 5_000, 1).then(
      () => true,
      () => false,
    );
    if (r >= 0) {
      if (done) {
        latencies.push(arrivals.last - t0);
        spreads.push(arrivals.last - arrivals.first);
      } else errors++;
    }
    await sleep(20);
  }
  return { latency: summarize(latencies), spread: summarize(spreads), errors, ok: latencies.length, elapsedMs: now() - started };
}

/** One event to 1,000 connected operators of one company, beside a bare `ws` broadcast of the same frame. */
export const fanout: Scenario = {
  name: 'fan-out',
  async run(ctx: Ctx): Promise<Row[]> {
    const { target, settings } = ctx;
    const n = settings.fanoutClients;
    const arrivals = { n: 0, last: 0, first: 0 };
    const arrive = () => {
      const t = now();
      if (arrivals.n++ === 0) arrivals.first = t;
      arrivals.last = t;
    };
    let sample = '';

    const ours = await openClients(`${target.wsBase}/1?token=${target.token}`, n, '-settings"', (frame) => {
      sample ||= frame.toString('utf8');
      arrive();
    });
    ctx.log(`  ${ours.length} operators connected to company 1`);
    const http = new KeepAliveClient(target.baseUrl, 1);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${target.token}` };
    const product = await rounds(
      settings.fanoutRounds,
      n,
      async (r) => {
        const res = await http.request('PUT', '/settings/userRating', headers, JSON.stringify({ value: r % 2 ? 'enabled' : 'disabled' }));
        if (res.status !== 200) throw new Error(`PUT /settings/userRating answered ${res.status}: ${res.body}`);
      },
      arrivals,
    );
    http.close();
    for (const ws of ours) ws.terminate();

    const port = await freePort();
    const bare = new NodeService('bare ws', 'bench/servers/bare-ws.ts', { PORT: String(port) });
    bare.start();
    ctx.extraWatched['bare ws (baseline)'] = () => bare.pid;
    try {
      await until('the bare ws server', async () => reachable('127.0.0.1', port), 30_000);
      const frame =
        sample || JSON.stringify({ seq: 1, event: 'company-1-settings', data: { action: 'update', setting: { key: 'userRating', value: 'enabled' } } });
      const theirs = await openClients(`ws://127.0.0.1:${port}/`, n, '-settings"', arrive);
      const bareHttp = new KeepAliveClient(`http://127.0.0.1:${port}`, 1);
      const baseline = await rounds(
        settings.fanoutRounds,
        n,
        async () => {
          await bareHttp.request('POST', '/broadcast', { 'content-type': 'application/json' }, frame);
        },
        arrivals,
      );
      bareHttp.close();
      for (const ws of theirs) ws.terminate();
      return [
        {
          scenario: 'fan-out',
          result: {
            what: `PUT /settings/userRating → the settings frame at all ${n} ws clients of company 1`,
            load: `${settings.fanoutRounds} rounds, one at a time (after ${WARM_UP} warm-up)`,
            throughput: (product.ok * n * 1000) / product.elapsedMs,
            unit: 'frames/s',
            latency: product.latency,
            errors: product.errors,
          },
          baseline: {
            what: 'bare ws: POST /broadcast → the same frame at all clients',
            load: `${settings.fanoutRounds} rounds, one at a time (after ${WARM_UP} warm-up)`,
            throughput: (baseline.ok * n * 1000) / baseline.elapsedMs,
            unit: 'frames/s',
            latency: baseline.latency,
            errors: baseline.errors,
          },
          ratio: ratioOfP99(product.latency, baseline.latency),
          target: 'p99 all-delivered < 50 ms',
          met: product.errors === 0 && product.latency.p99 < 50,
          notes: [
            both(
              `frame ${Buffer.byteLength(frame)} bytes`,
              `first→last client spread p50 ${product.spread.p50.toFixed(1)} ms (baseline ${baseline.spread.p50.toFixed(1)} ms); the rest is the request that causes the event`,
            )!,
          ],
        },
      ];
    } finally {
      await bare.stop();
      delete ctx.extraWatched['bare ws (baseline)'];
    }
  },
};
