import type { Ctx, Row, Scenario } from '../lib/context.js';
import { api } from '../lib/http.js';
import { memoryOf, sleep, until } from '../lib/proc.js';
import { uniqueToken } from '../lib/setup.js';
import { Target } from '../lib/target.js';

/** Idle RSS of the same configuration started from the built JavaScript, as in production. */
async function compiledIdle(ctx: Ctx): Promise<{ backend?: number; runtime?: number }> {
  const probe = new Target({ ...ctx.target.options, compiled: true, profileDir: undefined, log: ctx.log });
  try {
    await probe.start();
    await sleep(3000);
    return { backend: memoryOf(probe.backend.pid!)?.rss, runtime: probe.runtime?.pid ? memoryOf(probe.runtime.pid)?.rss : undefined };
  } finally {
    await probe.close();
  }
}

const MB = 1024 * 1024;
const mb = (bytes: number | undefined) => (bytes === undefined ? 'n/a' : `${(bytes / MB).toFixed(0)} MB`);

/**
 * RSS of the backend and the channel runtime idle (just after start, before any load) and after
 * `sessions` sandbox sessions have connected. On the embedded target the runtime lives in the
 * backend, so the sessions' cost shows there.
 */
export const memory: Scenario = {
  name: 'memory',
  async run(ctx: Ctx): Promise<Row[]> {
    const { target, settings } = ctx;
    const embedded = target.kind === 'embedded';
    const holder = embedded ? 'backend' : 'runtime';
    const client = api(target.baseUrl, target.token);
    const before = target.rssOf(holder);
    const started = Date.now();
    for (let i = 0; i < settings.sessions; i++) {
      await client.post('/chatapp/', { name: `Bench session ${i + 1}`, provider: 'sandbox', token: uniqueToken(`session-${i}`) });
    }
    const connected = await until(
      `${settings.sessions} sessions to connect`,
      async () => {
        const list = await client.get<Array<{ name: string; status: string }>>('/chatapp/');
        const ours = list.filter((c) => c.name.startsWith('Bench session '));
        return ours.length >= settings.sessions && ours.every((c) => c.status === 'CONNECTED') && ours.length;
      },
      120_000,
      200,
    );
    ctx.log(`  ${connected} sandbox sessions connected in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await sleep(2000);
    const after = target.rssOf(holder);
    const perSession = before !== undefined && after !== undefined ? (after - before) / settings.sessions : undefined;
    const compiled = ctx.compiled ? await compiledIdle(ctx) : undefined;
    // The target is judged on the production way of running (built JavaScript) when it was measured.
    const judged = compiled?.backend ?? ctx.idle.backend;
    const both = (tsx: number | undefined, js: number | undefined) => (compiled ? `${mb(js)} built JS (${mb(tsx)} under tsx)` : `${mb(tsx)} under tsx`);
    const rows: Row[] = [
      {
        scenario: 'memory: backend idle',
        result: { what: 'RSS of the backend just after start', load: 'none', value: both(ctx.idle.backend, compiled?.backend) },
        target: '< 150 MB on PostgreSQL (embedded: report)',
        met: embedded ? null : judged !== undefined && judged < 150 * MB,
        notes: [
          ...(embedded ? ['embedded: PGlite (WebAssembly PostgreSQL), broker and channel runtime are all inside this process'] : []),
          ...(compiled
            ? []
            : ['run from TypeScript through tsx (its compiler and source maps are in this figure); `--compiled` also measures the built JavaScript']),
        ],
        details: { idleTsx: ctx.idle, idleCompiled: compiled },
      },
    ];
    if (!embedded) {
      rows.push({
        scenario: 'memory: channel runtime idle',
        result: { what: 'RSS of the channel runtime just after start', load: 'none', value: both(ctx.idle.runtime, compiled?.runtime) },
        target: '— (reported)',
        met: null,
      });
    }
    rows.push({
      scenario: `memory: ${settings.sessions} sandbox sessions`,
      result: {
        what: `RSS of the ${embedded ? 'backend (runtime embedded)' : 'channel runtime'} after ${settings.sessions} sandbox sessions connected`,
        load: `${settings.sessions} × POST /chatapp/`,
        value: `${mb(before)} → ${mb(after)}, ${perSession === undefined ? 'n/a' : perSession < 0 ? 'below the noise (RSS fell meanwhile)' : `${(perSession / MB).toFixed(2)} MB`} per session`,
      },
      target: 'channel runtime < 30 MB per session',
      met: perSession === undefined ? false : perSession < 30 * MB,
      details: { before, after, perSession },
    });
    return rows;
  },
};
