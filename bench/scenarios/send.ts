import { randomBytes } from 'node:crypto';
import { both, ratioOfP99, ratioOfThroughput, sustainableRate, writeRateTarget, type Ctx, type Row, type Scenario } from '../lib/context.js';
import { api, KeepAliveClient } from '../lib/http.js';
import { cannon, closedLoop, paced, type PhaseResult } from '../lib/load.js';
import type { Queryable, Sql } from '../lib/sql.js';
import { conversationRows } from '../lib/sql-baselines.js';
import { messageFrames, messageKeys, NamespaceObserver } from '../lib/namespace.js';
import { freePort, NodeService, reachable, sleep, until } from '../lib/proc.js';
import { connectedSandbox, mobile, uniqueToken } from '../lib/setup.js';
import { now } from '../lib/stats.js';

let token = '';
let baseline: { connectionId: number; closed?: PhaseResult } | undefined;

/**
 * The rows an accepted send writes, straight through the driver in one transaction: contact
 * upsert, ticket upsert (a new open ticket, or the last message on the active one), message
 * insert and outbox insert (the send command).
 */
async function baselineRows(q: Queryable, connectionId: number, number: string, text: string): Promise<boolean> {
  const { contactId, ticketId } = await conversationRows(q, connectionId, number, text, 'outbound');
  const [message] = await q.query<{ id: string }>(
    `insert into messages (id, company_id, ticket_id, contact_id, connection_id, from_me, body, status, created_at, updated_at)
     values (gen_random_uuid(), 1, $1, $2, $3, true, $4, 'pending', now(), now()) returning id`,
    [ticketId, contactId, connectionId, text],
  );
  const payload = JSON.stringify({
    type: 'SessionSendMessage',
    messageId: message!.id,
    companyId: 1,
    chatappId: connectionId,
    ticketId,
    to: number,
    content: { body: text },
  });
  // Published at once so that nothing piles up for the relay of the backend sharing this database.
  await q.query(`insert into outbox (id, subject, payload, created_at, published_at, attempts) values ($1, $2, $3, now(), now(), 0)`, [
    message!.id,
    `cmd.session.send.${connectionId}`,
    payload,
  ]);
  return true;
}

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
    // The baseline writes on a connection of its own, never started: its rows stay apart from ours.
    const other = await api(ctx.target.baseUrl, ctx.target.token).post<{ id: number }>('/chatapp/', {
      name: 'Bench send baseline',
      provider: 'sandbox',
      token: uniqueToken('send-baseline'),
    });
    baseline = { connectionId: other.id };
  },

  async offline(ctx: Ctx, sql: Sql) {
    const b = baseline!;
    const run = randomBytes(4).toString('hex');
    b.closed = await closedLoop({
      concurrency: ctx.settings.connections,
      durationMs: ctx.settings.phaseMs,
      task: (_w, i) => sql.tx((q) => baselineRows(q, b.connectionId, mobile(30_000 + (i % 10_000)), `Seu pedido ${run}-${i} saiu para entrega`)),
    });
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
        url: `${target.baseUrl}/api/messages/send`,
        method: 'POST',
        connections: settings.connections,
        durationS,
        headers,
        setupRequest: (req) => ({ ...req, body: body(counter++) }),
        onResponse: (status, text) => {
          if (status === 200) ids.push((JSON.parse(text) as { messageId: string }).messageId);
        },
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

      // PostgreSQL: half of the most accepted; embedded: the fixed rate of its target.
      // On the embedded default a rate the closed loop did not sustain would only measure a queue: 80 % of it, missed.
      const goal =
        target.kind === 'embedded'
          ? writeRateTarget('embedded', 0, settings, 100)
          : { rate: Math.max(1, Math.floor(max.throughput / 2)), p99Ms: 20, label: 'p99 < 20 ms at half of max' };
      const { rate: half, capped } = target.kind === 'embedded' ? sustainableRate(goal.rate, max.throughput) : { rate: goal.rate, capped: false };
      const http = new KeepAliveClient(target.baseUrl, settings.connections);
      const ours = await paced({
        rate: half,
        durationMs: settings.phaseMs,
        drainMs: settings.drainMs,
        task: async (i) => (await http.request('POST', '/api/messages/send', headers, body(1_000_000 + i))).status === 200,
      });
      http.close();
      const bareHttp = new KeepAliveClient(`http://127.0.0.1:${port}`, settings.connections);
      const baseHalf = await paced({
        rate: half,
        durationMs: settings.phaseMs,
        drainMs: settings.drainMs,
        task: async (i) => (await bareHttp.request('POST', '/api/messages/send', headers, body(1_000_000 + i))).status === 200,
      });
      bareHttp.close();
      const baseWhat = 'bare Koa + @koa/router, POST route answering a constant';
      const sqlMax = baseline!.closed!;
      const sqlWhat = `contact upsert + ticket upsert + message insert + outbox insert in one transaction (${target.kind === 'embedded' ? 'PGlite in the bench process' : 'pg driver'})`;
      return [
        {
          scenario: 'send (max)',
          result: {
            what: 'POST /api/messages/send (text) accepted: message + outbox committed',
            load: max.load,
            throughput: max.throughput,
            unit: 'req/s',
            latency: max.latency,
            errors: max.errors,
          },
          baseline: { what: sqlWhat, load: sqlMax.load, throughput: sqlMax.throughput, unit: 'tx/s', latency: sqlMax.latency, errors: sqlMax.errors },
          ratio: ratioOfThroughput(max.throughput, sqlMax.throughput),
          target: target.kind === 'embedded' ? '≥ 50 % of baseline (embedded: report)' : '≥ 50 % of baseline',
          met: sqlMax.throughput > 0 && max.throughput >= 0.5 * sqlMax.throughput,
          notes: [
            `the ${ids.length} accepted sends were ${delivered === ids.length ? 'all' : `${delivered} of them`} delivered ${drainedS.toFixed(1)} s after the phase began: ${sustained.toFixed(0)} deliveries/s sustained`,
            `the HTTP floor beside it (${baseWhat}): ${Math.round(baseMax.throughput).toLocaleString('en')} req/s, p99 ${baseMax.latency.p99.toFixed(2)} ms`,
          ],
          details: { statusCodes: max.statusCodes, accepted: ids.length, delivered, drainedS },
        },
        {
          scenario: target.kind === 'embedded' ? `send @ ${half}/s` : 'send @ half of max',
          result: {
            what: 'POST /api/messages/send (text) accepted',
            load: ours.load,
            throughput: ours.throughput,
            unit: 'req/s',
            latency: ours.latency,
            errors: ours.errors,
          },
          baseline: { what: baseWhat, load: baseHalf.load, throughput: baseHalf.throughput, unit: 'req/s', latency: baseHalf.latency, errors: baseHalf.errors },
          ratio: both(ratioOfP99(ours.latency, baseHalf.latency)),
          target: goal.label,
          met: !capped && ours.errors === 0 && ours.latency.p99 < goal.p99Ms,
          ...(capped
            ? { notes: [`run at ${half}/s, 80 % of the ${max.throughput.toFixed(0)} req/s the closed loop sustained: ${goal.rate}/s is out of reach`] }
            : {}),
        },
      ];
    } finally {
      observer.close();
      await bare.stop();
      delete ctx.extraWatched['bare koa (baseline)'];
    }
  },
};
