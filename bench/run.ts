/**
 * `npm run bench [-- --quick] [--target embedded|postgres|both] [--only a,b] [--profile]`
 *
 * Starts the backend (and, on PostgreSQL + NATS, the channel runtime) as child processes on
 * loopback, loads them from this process, measures a baseline beside every scenario in the same
 * run, and writes bench/results/<timestamp>-<target>.json and .md, and bench/results/latest.md.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { settingsFor, type Ctx, type Row, type Scenario, type Settings } from './lib/context.js';
import { cpuLoad, memoryOf, natsServerBinary, quiesce, reachable, ROOT, sampleRss, sleep } from './lib/proc.js';
import type { Window } from './lib/profile.js';
import { commit, machine, markdown, write, type Report, type TargetReport } from './lib/report.js';
import { roomyPlans } from './lib/setup.js';
import { Target, type TargetKind } from './lib/target.js';
import { productTree, type ProductTree } from './lib/tree.js';
import { deliver } from './scenarios/deliver.js';
import { fanout } from './scenarios/fanout.js';
import { inbound } from './scenarios/inbound.js';
import { memory } from './scenarios/memory.js';
import { send } from './scenarios/send.js';
import { ticketList } from './scenarios/ticket-list.js';
import { dashboard } from './scenarios/dashboard.js';
import { consoleScenario } from './scenarios/console.js';
import { consoleScreens } from './scenarios/console-screens.js';

/** In this order: memory first (idle and sessions before any load); send before deliver, which runs at a rate send found sustainable. */
const SCENARIOS: Scenario[] = [memory, fanout, ticketList, dashboard, consoleScenario, consoleScreens, inbound, send, deliver];

const { values: args } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    target: { type: 'string' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    tickets: { type: 'string' },
    ref: { type: 'string' },
    compiled: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

if (args.help) {
  process.stdout.write(`npm run bench -- [--quick] [--target embedded|postgres|both] [--only memory,fan-out,ticket list,dashboard,console,console screens,inbound,deliver,send] [--profile] [--tickets N]
  --quick     a smoke of about a minute per target (short phases, ticket tenant of 5,000 tickets)
  --target    default: both when BENCH_DATABASE_URL answers (default: the Unix socket in /var/run/postgresql when there, else postgres://postgres@127.0.0.1:5432/postgres), else embedded
  --only      run some scenarios (names as in the table, comma-separated)
  --profile   run backend and runtime with --cpu-prof; a summary of the profiles is printed, files under bench/results/profiles/
  --tickets   size of the generated ticket tenant (10 messages each)
  --ref       bench a commit (e.g. HEAD) from a snapshot of its sources instead of the working tree
  --compiled  also measure idle memory of the built JavaScript (with --ref the snapshot is built; else the dist/ present is used)
Environment: BENCH_DATABASE_URL, BENCH_NATS_URL (default: a private nats-server on a free loopback port when installed, else nats://127.0.0.1:4222)
`);
  process.exit(0);
}

const log = (line: string) => process.stdout.write(`${line}\n`);
/** PostgreSQL's Unix socket on this host (Debian's directory), the way docs/configuration.md recommends reaching a local server. */
const SOCKET_DIR = '/var/run/postgresql';
const databaseUrl =
  process.env.BENCH_DATABASE_URL ||
  (existsSync(`${SOCKET_DIR}/.s.PGSQL.5432`)
    ? `postgres://postgres@localhost:5432/postgres?host=${SOCKET_DIR}`
    : 'postgres://postgres@127.0.0.1:5432/postgres');
const natsBinary = natsServerBinary();
const natsUrl = process.env.BENCH_NATS_URL || (natsBinary ? undefined : 'nats://127.0.0.1:4222');

/** Loopback only: the bench never sends traffic anywhere else. */
function assertLoopback(url: string) {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (!(host === 'localhost' || host === '::1' || /^127\./.test(host))) throw new Error(`${url}: the bench only talks to loopback addresses`);
}

async function postgresUsable(): Promise<string | null> {
  assertLoopback(databaseUrl);
  const url = new URL(databaseUrl);
  if (!url.searchParams.has('host') && !(await reachable(url.hostname, Number(url.port || 5432)))) return `PostgreSQL does not answer at ${url.host}`;
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
  } catch (err) {
    return `PostgreSQL refused: ${String(err)}`;
  } finally {
    await client.end().catch(() => undefined);
  }
  if (natsUrl) {
    assertLoopback(natsUrl);
    const n = new URL(natsUrl);
    if (!(await reachable(n.hostname, Number(n.port || 4222)))) return `NATS does not answer at ${n.host} (and nats-server is not installed)`;
  }
  return null;
}

async function chooseTargets(): Promise<{ kinds: TargetKind[]; notes: string[] }> {
  const asked = args.target ?? (process.env.BENCH_TARGET || undefined);
  if (asked && !['embedded', 'postgres', 'both'].includes(asked)) throw new Error(`--target ${asked}: embedded, postgres or both`);
  if (asked === 'embedded') return { kinds: ['embedded'], notes: [] };
  const unusable = await postgresUsable();
  if (asked === 'postgres' || asked === 'both') {
    if (unusable) throw new Error(`--target ${asked}: ${unusable}`);
    return { kinds: asked === 'both' ? ['embedded', 'postgres'] : ['postgres'], notes: [] };
  }
  if (unusable) return { kinds: ['embedded'], notes: [`PostgreSQL + NATS skipped: ${unusable}`] };
  return { kinds: ['embedded', 'postgres'], notes: [] };
}

function serverVersions(target: Target): Record<string, string> {
  const versions = { ...target.servers };
  if (target.kind === 'postgres') {
    if (target.nats && natsBinary)
      versions['nats-server'] = `${spawnSync(natsBinary, ['--version'], { encoding: 'utf8' }).stdout.trim()} (private, started by the bench)`;
    else if (target.natsUrl) versions.nats = target.natsUrl;
  }
  return versions;
}

async function runTarget(
  kind: TargetKind,
  settings: Settings,
  scenarios: Scenario[],
  profileDir: string | undefined,
  tree: ProductTree,
): Promise<TargetReport> {
  const startedAt = new Date().toISOString();
  const target = new Target({ kind, databaseUrl, ...(natsUrl ? { natsUrl } : {}), natsBinary, ...(profileDir ? { profileDir } : {}), root: tree.root, log });
  const rows: Row[] = [];
  const failures: TargetReport['failures'] = [];
  closing.add(target);
  try {
    log(`\n== ${target.label}`);
    await target.start();
    await sleep(3000);
    const idle = { backend: memoryOf(target.backend.pid!)?.rss, runtime: target.runtime?.pid ? memoryOf(target.runtime.pid)?.rss : undefined };
    const idleLoad = await cpuLoad([target.backend.pid, target.runtime?.pid], 2000);
    log(
      `  idle: backend ${Math.round((idle.backend ?? 0) / 2 ** 20)} MB, ${Math.round(idleLoad[0]! * 100)} % of a core${target.runtime ? `; runtime ${Math.round((idle.runtime ?? 0) / 2 ** 20)} MB, ${Math.round(idleLoad[1]! * 100)} % of a core` : ''}`,
    );
    await roomyPlans(target);
    const ctx: Ctx = { target, settings, log, idle, compiled: args.compiled, shared: {}, extraWatched: {} };
    const ready: Scenario[] = [];
    for (const s of scenarios) {
      try {
        await s.setup?.(ctx);
        ready.push(s);
      } catch (err) {
        failures.push({ scenario: s.name, error: `set-up: ${String((err as Error).stack ?? err)}` });
        log(`  ${s.name}: set-up failed: ${String(err)}`);
      }
    }
    const offline = ready.filter((s) => s.offline);
    if (offline.length) {
      log(`-- direct SQL: seeding and SQL baselines (${offline.map((s) => s.name).join(', ')})`);
      await target.withSql(settings.connections, async (sql) => {
        for (const s of offline) {
          try {
            await s.offline!(ctx, sql);
          } catch (err) {
            failures.push({ scenario: s.name, error: `baseline: ${String((err as Error).stack ?? err)}` });
            ready.splice(ready.indexOf(s), 1);
            log(`  ${s.name}: direct SQL failed: ${String(err)}`);
          }
        }
      });
    }
    for (const s of ready) {
      const calm = await quiesce([target.backend.pid, target.runtime?.pid], settings.quiesceMs, idleLoad);
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      log(
        `-- ${s.name}${calm.waitedMs > 1500 ? ` (after ${(calm.waitedMs / 1000).toFixed(0)} s waiting for the previous work to finish${calm.quiet ? '' : `, still busy: ${calm.load.map((l) => `${Math.round(l * 100)} %`).join(' / ')} of a core`})` : ''}`,
      );
      const sampler = sampleRss(() => ({ ...target.watched(), ...ctx.extraWatched }), 100);
      try {
        const got = await s.run(ctx);
        const peak = sampler.stop();
        windows.push({ label: `${kind}: ${s.name}`, fromUs, toUs: Number(process.hrtime.bigint() / 1000n) });
        for (const r of got) {
          r.peakRss = peak;
          rows.push(r);
          log(
            `  ${r.scenario}: ${r.result.value ?? `${r.result.throughput?.toFixed(0)} ${r.result.unit}, p99 ${r.result.latency?.p99.toFixed(1)} ms, ${r.result.errors} errors`}` +
              `${r.baseline ? ` | baseline ${r.baseline.value ?? `${r.baseline.throughput?.toFixed(0)} ${r.baseline.unit}, p99 ${r.baseline.latency?.p99.toFixed(1)} ms`}` : ''} → ${r.met === null ? 'n/a' : r.met ? 'met' : 'MISSED'}`,
          );
        }
      } catch (err) {
        sampler.stop();
        failures.push({ scenario: s.name, error: String((err as Error).stack ?? err) });
        log(`  ${s.name} failed: ${String(err)}\n${target.backend.tail(10)}`);
      }
    }
  } finally {
    await target.close().catch((err) => log(`  clean-up: ${String(err)}`));
    closing.delete(target);
  }
  return { target: kind, configuration: target.label, servers: serverVersions(target), startedAt, finishedAt: new Date().toISOString(), rows, failures };
}

const closing = new Set<Target>();
/** When each scenario ran, to cut the CPU profiles by scenario. */
const windows: Window[] = [];
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    log(`\n${signal}: stopping the processes and dropping the bench database`);
    void Promise.all([...closing].map((t) => t.close().catch(() => undefined))).finally(() => process.exit(130));
  });
}

const started = Date.now();
const startMachine = machine();
const overrides: Partial<Settings> = args.tickets ? { tickets: Number(args.tickets) } : {};
const settings = settingsFor(args.quick, overrides);
const wanted = args.only?.split(',').map((s) => s.trim().toLowerCase());
const scenarios = wanted ? SCENARIOS.filter((s) => wanted.includes(s.name)) : SCENARIOS;
if (wanted && scenarios.length !== wanted.length) throw new Error(`--only: scenarios are ${SCENARIOS.map((s) => s.name).join(', ')}`);
const { kinds, notes } = await chooseTargets();
const stamp = new Date()
  .toISOString()
  .replace(/[:.]/g, '-')
  .replace(/-\d{3}Z$/, 'Z');
const profileDir = args.profile ? path.join(ROOT, 'bench', 'results', 'profiles', stamp) : undefined;
if (profileDir) mkdirSync(profileDir, { recursive: true });
if (settings.quick)
  notes.push(
    `--quick: ${settings.phaseMs / 1000} s phases, ${settings.fanoutRounds} fan-out rounds, ticket tenant scaled down to ${settings.tickets.toLocaleString('en')} tickets / ${(settings.tickets * settings.messagesPerTicket).toLocaleString('en')} messages (the issue's figures need the full run)`,
  );
if (startMachine.loadBefore[0]! > 0.5)
  notes.push(`the machine was already busy when the run began (load average ${startMachine.loadBefore[0]}): figures may be low`);
log(`bench: ${settings.quick ? 'quick' : 'full'} run on ${kinds.join(' and ')}`);
for (const n of notes) log(`  ${n}`);

const tree = productTree(args.ref);
if (tree.ref) notes.push(`product run from a snapshot of ${tree.ref.name} (${tree.ref.sha.slice(0, 10)}), not the working tree`);
if (args.compiled) {
  if (tree.ref) {
    log('building the snapshot (tsc -b) for --compiled');
    const built = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-b', 'packages/backend', 'packages/channel-runtime'], {
      cwd: tree.root,
      encoding: 'utf8',
    });
    if (built.status !== 0) throw new Error(`tsc -b failed in the snapshot:\n${built.stdout}${built.stderr}`);
  } else if (!existsSync(path.join(ROOT, 'packages/backend/dist/src/main.js'))) {
    throw new Error('--compiled: no packages/backend/dist; run `npm run build` first (or use --ref)');
  } else {
    notes.push('--compiled used the dist/ of the working tree as last built');
  }
}
const targets: TargetReport[] = [];
try {
  for (const s of scenarios) await s.prepare?.(tree.root, log);
  for (const kind of kinds) targets.push(await runTarget(kind, settings, scenarios, profileDir, tree));
} finally {
  tree.cleanup();
}
const sha = tree.ref ? { sha: tree.ref.sha, subject: tree.ref.subject, dirty: false } : commit();
const report: Report = {
  tool: 'bench/run.ts',
  mode: settings.quick ? 'quick' : 'full',
  machine: { ...startMachine, loadAfter: os.loadavg().map((l) => Number(l.toFixed(2))) },
  commit: sha,
  settings,
  notes,
  targets,
};
const files = write(report, stamp);
log(`\n${markdown(report)}`);
if (profileDir) {
  const { summarizeProfiles } = await import('./lib/profile.js');
  const text = summarizeProfiles(profileDir, windows);
  writeFileSync(path.join(profileDir, 'summary.txt'), `${text}\n`);
  log(text);
}
log(`written: ${files.map((f) => path.relative(ROOT, f)).join(', ')} in ${((Date.now() - started) / 1000).toFixed(0)} s`);
process.exit(targets.some((t) => t.failures.length) ? 1 : 0);
