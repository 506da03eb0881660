import { randomBytes } from 'node:crypto';
import { both, ratioOfP99, ratioOfThroughput, type Ctx, type Row, type Scenario } from '../lib/context.js';
import { KeepAliveClient } from '../lib/http.js';
import { cannon, paced } from '../lib/load.js';
import { messageFrames, messageKeys, NamespaceObserver } from '../lib/namespace.js';
import { freePort, NodeService, reachable, sleep, until } from '../lib/proc.js';
import { connectedSandbox, mobile, uniqueToken } from '../lib/setup.js';
import { now } from '../lib/stats.js';

let token = '';

/**
 * `POST /api/messages/send` (text): accepted = message and command committed. First the most it
 * takes (closed loop), then latency at half of that rate (open loop); bare Koa + @koa/router
 * answering a constant beside it, with the same load tool and settings.
 */
export const send: Scenario = {
  name: 'send',
  async setup(ctx: Ctx) {
    token = uniqueToken('send');
    await connectedSandbox(ctx.target, 'Bench send', token);
  },

  async run(ctx: Ctx): Promise<Row[]> {
    const { target, settings } = ctx;
    const run = randomBytes(4).toString('hex');
    const durationS = Math.round(settings.phaseMs / 1000);
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    const port = await freePort();
    const bare = new NodeService('bare koa', 'bench/servers/bare-koa.ts', { PORT: String(port) });
    bare.start();
    ctx.extraWatched['bare koa (baseline)'] = () => bare.pid;
    const observer = await NamespaceObserver.open(`${target.wsBase}/1?token=${target.token}`, messageKeys, messageFrames);
    try {
      await until('the bare koa server', async () => reachable('127.0.0.1', port), 30_000);
      const bareUrl = `http://127.0.0.1:${port}/api/messages/send`;
      const body = (i: number) => JSON.stringify({ number: mobile(i % 10_000), body: `Seu pedido ${run}-${i} saiu para entrega` });
      await cannon({ url: bareUrl, method: 'POST', connections: settings.connections, durationS: 1, headers, body: body(0) });
      const baseMax = await cannon({ url: bareUrl, method: 'POST', connections: settings.connections, durationS, headers, body: body(0) });

      let counter = 0;
      const ids: string[] = [];
      const started = now();
      const max = await cannon({
        url: `${target.baseUrl}/api/messages/send`, method: 'POST', connections: settings.connections, durationS, headers,
        setupRequest: (req) => ({ ...req, body: body(counter++) }),
        onResponse: (status, text) => { if (status === 200) ids.push((JSON.parse(text) as { messageId: string }).messageId); },
      });
      ctx.log(`  closed loop: ${max.ok} sends accepted, ${max.throughput.toFixed(0)} req/s; waiting for their deliveries`);
      // The accepted sends still have to go out; wait (bounded) so the next phase starts clean.
      const deadline = now() + settings.drainMs;
      while (now() < deadline && ids.some((id) => !observer.has(`delivered:${id}`))) await sleep(100);
      const delivered = ids.filter((id) => observer.has(`delivered:${id}`)).length;
      let lastDelivery = 0;
      for (const id of ids) lastDelivery = Math.max(lastDelivery, observer.arrival(`delivered:${id}`) ?? 0);
      const drainedS = ((lastDelivery || now()) - started) / 1000;
      const sustained = delivered / drainedS;
      if (delivered > 0) ctx.shared.sustainedDeliveries = sustained;
      ctx.log(`  ${delivered} of ${ids.length} delivered after ${drainedS.toFixed(1)} s (${sustained.toFixed(0)} deliveries/s sustained)`);
      observer.reset();

      const half = Math.max(1, Math.floor(max.throughput / 2));
      const http = new KeepAliveClient(target.baseUrl, settings.connections);
      const ours = await paced({
        rate: half, durationMs: settings.phaseMs, drainMs: settings.drainMs,
        task: async (i) => (await http.request('POST', '/api/messages/send', headers, body(1_000_000 + i))).status === 200,
      });
      http.close();
      const bareHttp = new KeepAliveClient(`http://127.0.0.1:${port}`, settings.connections);
      const baseHalf = await paced({
        rate: half, durationMs: settings.phaseMs, drainMs: settings.drainMs,
        task: async (i) => (await bareHttp.request('POST', '/api/messages/send', headers, body(1_000_000 + i))).status === 200,
      });
      bareHttp.close();
      const baseWhat = 'bare Koa + @koa/router, POST route answering a constant';
      return [
        {
          scenario: 'send (max)',
          result: {
            what: 'POST /api/messages/send (text) accepted: message + outbox committed', load: max.load,
            throughput: max.throughput, unit: 'req/s', latency: max.latency, errors: max.errors,
          },
          baseline: { what: baseWhat, load: baseMax.load, throughput: baseMax.throughput, unit: 'req/s', latency: baseMax.latency, errors: baseMax.errors },
          ratio: ratioOfThroughput(max.throughput, baseMax.throughput),
          target: '≥ 2,000 req/s on 2 cores',
          met: max.throughput >= 2000,
          notes: [`the ${ids.length} accepted sends were ${delivered === ids.length ? 'all' : `${delivered} of them`} delivered ${drainedS.toFixed(1)} s after the phase began: ${sustained.toFixed(0)} deliveries/s sustained`],
          details: { statusCodes: max.statusCodes, accepted: ids.length, delivered, drainedS },
        },
        {
          scenario: 'send @ half of max',
          result: {
            what: 'POST /api/messages/send (text) accepted', load: ours.load,
            throughput: ours.throughput, unit: 'req/s', latency: ours.latency, errors: ours.errors,
          },
          baseline: { what: baseWhat, load: baseHalf.load, throughput: baseHalf.throughput, unit: 'req/s', latency: baseHalf.latency, errors: baseHalf.errors },
          ratio: both(ratioOfP99(ours.latency, baseHalf.latency)),
          target: 'p99 < 20 ms at half of max',
          met: ours.errors === 0 && ours.latency.p99 < 20,
        },
      ];
    } finally {
      observer.close();
      await bare.stop();
      delete ctx.extraWatched['bare koa (baseline)'];
    }
  },
};
