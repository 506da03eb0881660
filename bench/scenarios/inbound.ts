import { randomBytes } from 'node:crypto';
import { both, ratioOfP99, ratioOfThroughput, sustainableRate, writeRateTarget, type Ctx, type Row, type Scenario } from '../lib/context.js';
import { api, KeepAliveClient } from '../lib/http.js';
import { closedLoop, paced, type PhaseResult } from '../lib/load.js';
import { messageFrames, messageKeys, NamespaceObserver } from '../lib/namespace.js';
import { messengerDelivery, metaSignature } from '../lib/setup.js';
import { pageToken } from '../lib/fake-graph.js';
import type { Queryable, Sql } from '../lib/sql.js';
import { conversationRows } from '../lib/sql-baselines.js';

const PAGE = 'BENCH-PAGE';

interface State {
  pageId: number;
  baselineConnectionId: number;
  closed?: PhaseResult;
  rated?: PhaseResult;
}
let state: State | undefined;

/**
 * The rows one inbound message writes, straight through the driver in one transaction: contact
 * upsert, ticket upsert (a new pending ticket or one more unread on the active one), message insert.
 */
async function baselineRows(q: Queryable, connectionId: number, sender: string, mid: string, text: string): Promise<boolean> {
  const { contactId, ticketId } = await conversationRows(q, connectionId, sender, text, 'inbound');
  const inserted = await q.query(
    `insert into messages (id, company_id, ticket_id, contact_id, connection_id, provider_message_id, from_me, body, status, created_at, updated_at)
     values (gen_random_uuid(), 1, $1, $2, $3, $4, false, $5, 'delivered', now(), now())
     on conflict (connection_id, provider_message_id) do nothing returning id`,
    [ticketId, contactId, connectionId, mid, text],
  );
  return inserted.length === 1;
}

/**
 * Signed Messenger webhooks with unique message ids from 10,000 contacts; done when the message's
 * `appMessage` create frame reaches a client connected to the company namespace.
 */
export const inbound: Scenario = {
  name: 'inbound',
  async setup(ctx: Ctx) {
    const client = api(ctx.target.baseUrl, ctx.target.token);
    const page = await client.post<{ id: number }>('/socialnet/', {
      name: 'Bench page',
      provider: 'sandbox',
      externalId: PAGE,
      secrets: { pageAccessToken: pageToken(PAGE) },
    });
    const other = await client.post<{ id: number }>('/socialnet/', {
      name: 'Bench baseline page',
      provider: 'sandbox',
      externalId: 'BENCH-BASELINE-PAGE',
      secrets: { pageAccessToken: pageToken('BENCH-BASELINE-PAGE') },
    });
    state = { pageId: page.id, baselineConnectionId: other.id };
  },

  async offline(ctx: Ctx, sql: Sql) {
    const s = state!;
    const { settings } = ctx;
    const run = randomBytes(4).toString('hex');
    const task = (i: number) =>
      sql.tx((q) => baselineRows(q, s.baselineConnectionId, `BASE-PSID-${i % settings.inboundContacts}`, `base-${run}-${i}`, `Olá, mensagem ${i}`));
    s.closed = await closedLoop({ concurrency: settings.connections, durationMs: settings.phaseMs, task: (_w, i) => task(i) });
    // At the target rate, or below what the driver sustained when even that is out of its reach.
    const { rate } = writeRateTarget(ctx.target.kind, s.closed.throughput, settings, 50);
    s.rated = await paced({ rate, durationMs: settings.phaseMs, drainMs: settings.drainMs, task: (i) => task(1_000_000 + i) });
  },

  async run(ctx: Ctx): Promise<Row[]> {
    const { target, settings } = ctx;
    const s = state!;
    const run = randomBytes(4).toString('hex');
    const observer = await NamespaceObserver.open(`${target.wsBase}/1?token=${target.token}`, messageKeys, messageFrames);
    try {
      // Closed loop on completion: each of `connections` senders posts a webhook and waits for its
      // event before the next, so the queue behind the webhook stays bounded. (autocannon cannot
      // wait for a websocket frame; it drives the HTTP-only phases.)
      const http = new KeepAliveClient(target.baseUrl, settings.connections);
      let lost = 0;
      const closed = await closedLoop({
        concurrency: settings.connections,
        durationMs: settings.phaseMs,
        task: async (_w, i) => {
          const mid = `m_${run}_a${i}`;
          const body = messengerDelivery(PAGE, `PSID-${i % settings.inboundContacts}`, mid, `Olá, mensagem ${i}`);
          const res = await http.request('POST', '/webhook/', { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body) }, body);
          if (res.status !== 200) return false;
          if ((await observer.wait(`in:${mid}`, settings.drainMs)) === null) {
            lost++;
            return false;
          }
          return true;
        },
      });
      const throughput = closed.throughput;
      ctx.log(`  closed loop: ${closed.ok} messages through, ${throughput.toFixed(0)} msg/s, ${lost} events missing`);
      observer.reset();

      // Open loop at the target rate (or below what the closed loop sustained): latency from the webhook being due to its event.
      const goal = writeRateTarget(target.kind, s.closed!.throughput, settings, 50);
      const { rate, capped } = sustainableRate(goal.rate, throughput);
      const rated = await paced({
        rate,
        durationMs: settings.phaseMs,
        drainMs: settings.drainMs,
        task: async (i) => {
          const mid = `m_${run}_b${i}`;
          const body = messengerDelivery(PAGE, `PSID-${i % settings.inboundContacts}`, mid, `Bom dia, pedido ${i}`);
          const res = await http.request('POST', '/webhook/', { 'content-type': 'application/json', 'x-hub-signature-256': metaSignature(body) }, body);
          if (res.status !== 200) return false;
          return (await observer.wait(`in:${mid}`, settings.drainMs)) ?? false;
        },
      });
      http.close();
      const bc = s.closed!;
      const br = s.rated!;
      const baseWhat = `contact upsert + ticket upsert + message insert in one transaction (${target.kind === 'embedded' ? 'PGlite in the bench process' : 'pg driver'})`;
      return [
        {
          scenario: 'inbound (max)',
          result: {
            what: 'signed POST /webhook/ → message stored and its appMessage frame received',
            load: `${closed.load}, 10,000 contacts`,
            throughput,
            unit: 'msg/s',
            latency: closed.latency,
            errors: closed.errors,
          },
          baseline: { what: baseWhat, load: bc.load, throughput: bc.throughput, unit: 'tx/s', latency: bc.latency, errors: bc.errors },
          ratio: ratioOfThroughput(throughput, bc.throughput),
          target: target.kind === 'embedded' ? '≥ 50 % of baseline (embedded: report)' : '≥ 50 % of baseline',
          met: bc.throughput > 0 && throughput >= 0.5 * bc.throughput,
        },
        {
          scenario: `inbound @ ${rate}/s`,
          result: {
            what: 'webhook due → appMessage frame received',
            load: rated.load,
            throughput: rated.throughput,
            unit: 'msg/s',
            latency: rated.latency,
            errors: rated.errors,
          },
          baseline: { what: baseWhat, load: br.load, throughput: br.throughput, unit: 'tx/s', latency: br.latency, errors: br.errors },
          // Compared only at the same rate; else the baseline shows what the driver does at the target rate.
          ratio: capped ? 'rates differ: see the loads' : both(ratioOfP99(rated.latency, br.latency)),
          target: `webhook-to-event ${goal.label}`,
          met: !capped && rated.errors === 0 && rated.latency.p99 < goal.p99Ms,
          notes: [
            ...(capped ? [`run at ${rate}/s, 80 % of the ${throughput.toFixed(0)} msg/s the closed loop sustained: ${goal.rate} msg/s is out of reach`] : []),
            ...(rated.errors
              ? [`${rated.dropped} not sent (too many in flight), ${rated.unfinished} without their event after ${settings.drainMs / 1000} s`]
              : []),
          ],
        },
      ];
    } finally {
      observer.close();
    }
  },
};
