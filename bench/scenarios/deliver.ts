import { randomBytes } from 'node:crypto';
import { ratioOfP99, sustainableRate, type Ctx, type Row, type Scenario } from '../lib/context.js';
import { brokerRoundTrips } from '../lib/broker-baseline.js';
import { KeepAliveClient } from '../lib/http.js';
import { paced } from '../lib/load.js';
import { messageFrames, messageKeys, NamespaceObserver } from '../lib/namespace.js';
import { connectedSandbox, mobile, uniqueToken } from '../lib/setup.js';

let token = '';

/**
 * Accepted send → outbox → broker → runtime → sandbox connector acknowledges → status
 * `delivered` seen on the company namespace, at a fixed rate, beside the broker alone.
 */
export const deliver: Scenario = {
  name: 'deliver',
  async setup(ctx: Ctx) {
    token = uniqueToken('deliver');
    await connectedSandbox(ctx.target, 'Bench deliver', token);
  },

  async run(ctx: Ctx): Promise<Row[]> {
    const { target, settings } = ctx;
    const run = randomBytes(4).toString('hex');
    const observer = await NamespaceObserver.open(`${target.wsBase}/1?token=${target.token}`, messageKeys, messageFrames);
    const sustained = ctx.shared.sustainedDeliveries;
    const { rate, capped } = sustainableRate(settings.deliverRate, sustained);
    const http = new KeepAliveClient(target.baseUrl, 64);
    let refused = 0;
    let failed = 0;
    const ours = await paced({
      rate, durationMs: settings.phaseMs, drainMs: settings.drainMs,
      task: async (i) => {
        const body = JSON.stringify({ number: mobile(20_000 + (i % 10_000)), body: `Entrega ${run} ${i}` });
        const res = await http.request('POST', '/api/messages/send', { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body);
        if (res.status !== 200) { refused++; return false; }
        const id = (JSON.parse(res.body) as { messageId: string }).messageId;
        const at = await observer.wait(`delivered:${id}`, settings.drainMs);
        if (at === null && observer.has(`failed:${id}`)) failed++;
        return at ?? false;
      },
    });
    http.close();
    observer.close();
    const base = await brokerRoundTrips({ ...(target.natsUrl ? { natsUrl: target.natsUrl } : {}), root: target.root, rate, durationMs: settings.phaseMs, drainMs: settings.drainMs });
    const notes: string[] = [];
    if (capped) notes.push(`run at ${rate}/s, 80 % of the ${sustained!.toFixed(0)} deliveries/s the send scenario sustained: ${settings.deliverRate} msg/s is out of reach`);
    if (ours.errors) notes.push(`${refused} sends refused, ${failed} failed, ${ours.dropped} not sent (too many in flight), ${ours.unfinished} not delivered within ${settings.drainMs / 1000} s`);
    return [{
      scenario: `deliver @ ${rate}/s`,
      result: {
        what: 'POST /api/messages/send due → sandbox acked → delivered frame received', load: ours.load,
        throughput: ours.throughput, unit: 'msg/s', latency: ours.latency, errors: ours.errors,
      },
      baseline: { what: base.what, load: base.load, throughput: base.throughput, unit: 'msg/s', latency: base.latency, errors: base.errors },
      ratio: ratioOfP99(ours.latency, base.latency),
      target: `end-to-end p99 < 100 ms at ${settings.deliverRate} msg/s`,
      met: !capped && ours.errors === 0 && ours.latency.p99 < 100,
      ...(notes.length ? { notes } : {}),
    }];
  },
};
