import { randomBytes } from 'node:crypto';
import { ratioOfP99, type Ctx, type Row, type Scenario } from '../lib/context.js';
import { brokerRoundTrips } from '../lib/broker-baseline.js';
import { KeepAliveClient } from '../lib/http.js';
import { paced, type PhaseResult } from '../lib/load.js';
import { messageFrames, messageKeys, NamespaceObserver } from '../lib/namespace.js';
import { now, summarize } from '../lib/stats.js';
import { connectedSandbox, mobile, uniqueToken } from '../lib/setup.js';

/** The tokens of the connections sends go through: the first alone, then all of them in turn. */
let tokens: string[] = [];

/**
 * Accepted send → outbox → broker → runtime → sandbox connector acknowledges → status
 * `delivered` seen on the company namespace, at half of the delivery rate the send scenario
 * sustained: through one connection (its sends are ordered), then spread over several; beside
 * the broker alone at the same rate.
 */
export const deliver: Scenario = {
  name: 'deliver',
  async setup(ctx: Ctx) {
    tokens = [];
    for (let i = 0; i < ctx.settings.deliverConnections; i++) {
      const token = uniqueToken(`deliver-${i}`);
      await connectedSandbox(ctx.target, `Bench deliver ${i + 1}`, token);
      tokens.push(token);
    }
  },

  async run(ctx: Ctx): Promise<Row[]> {
    const { target, settings } = ctx;
    const run = randomBytes(4).toString('hex');
    const sustained = ctx.shared.sustainedDeliveries;
    const rate = Math.max(5, Math.floor((sustained ?? 10) / 2));
    const measure = async (through: readonly string[], offset: number) => {
      const observer = await NamespaceObserver.open(`${target.wsBase}/1?token=${target.token}`, messageKeys, messageFrames);
      const http = new KeepAliveClient(target.baseUrl, 64);
      let refused = 0;
      let failed = 0;
      // Where each delivery's time went: the request until accepted, until the `sent` frame, until `delivered`.
      const legs = { accepted: [] as number[], sent: [] as number[], delivered: [] as number[] };
      try {
        const result = await paced({
          rate,
          durationMs: settings.phaseMs,
          drainMs: settings.drainMs,
          task: async (i) => {
            const token = through[i % through.length]!;
            const body = JSON.stringify({ number: mobile(offset + (i % 10_000)), body: `Entrega ${run} ${i}` });
            const asked = now();
            const res = await http.request('POST', '/api/messages/send', { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body);
            if (res.status !== 200) {
              refused++;
              return false;
            }
            const accepted = now();
            const id = (JSON.parse(res.body) as { messageId: string }).messageId;
            const at = await observer.wait(`delivered:${id}`, settings.drainMs);
            if (at === null && observer.has(`failed:${id}`)) failed++;
            const sent = observer.arrival(`sent:${id}`);
            if (at !== null && sent !== undefined) {
              legs.accepted.push(accepted - asked);
              legs.sent.push(sent - accepted);
              legs.delivered.push(at - sent);
            }
            return at ?? false;
          },
        });
        return { result, refused, failed, legs };
      } finally {
        http.close();
        observer.close();
      }
    };
    const one = await measure(tokens.slice(0, 1), 20_000);
    const many = await measure(tokens, 40_000);
    const base = await brokerRoundTrips({
      ...(target.natsUrl ? { natsUrl: target.natsUrl } : {}),
      root: target.root,
      rate,
      durationMs: settings.phaseMs,
      drainMs: settings.drainMs,
    });
    const row = (
      label: string,
      m: {
        result: PhaseResult & { dropped: number; unfinished: number };
        refused: number;
        failed: number;
        legs: Record<'accepted' | 'sent' | 'delivered', number[]>;
      },
    ): Row => {
      const notes = [
        `${rate}/s is half of the ${sustained === undefined ? '(unmeasured: send did not run)' : sustained.toFixed(0)} deliveries/s the send scenario sustained`,
      ];
      const leg = (xs: number[]) => {
        const l = summarize(xs);
        return `p50 ${l.p50.toFixed(1)} / p99 ${l.p99.toFixed(1)} ms`;
      };
      if (m.legs.sent.length) {
        notes.push(
          `where the time went: request → accepted ${leg(m.legs.accepted)}; accepted → \`sent\` frame (relay, broker, runtime, its event) ${leg(m.legs.sent)}; \`sent\` → \`delivered\` frame ${leg(m.legs.delivered)}`,
        );
      }
      if (m.result.errors)
        notes.push(
          `${m.refused} sends refused, ${m.failed} failed, ${m.result.dropped} not sent (too many in flight), ${m.result.unfinished} not delivered within ${settings.drainMs / 1000} s`,
        );
      return {
        scenario: `deliver @ ${rate}/s, ${label}`,
        result: {
          what: 'POST /api/messages/send due → sandbox acked → delivered frame received',
          load: m.result.load,
          throughput: m.result.throughput,
          unit: 'msg/s',
          latency: m.result.latency,
          errors: m.result.errors,
        },
        baseline: { what: base.what, load: base.load, throughput: base.throughput, unit: 'msg/s', latency: base.latency, errors: base.errors },
        ratio: ratioOfP99(m.result.latency, base.latency),
        target: 'end-to-end p99 < 100 ms at 50 % of the sustained send rate',
        met: sustained !== undefined && m.result.errors === 0 && m.result.latency.p99 < 100,
        notes,
      };
    };
    return [row('one connection', one), row(`${tokens.length} connections`, many)];
  },
};
