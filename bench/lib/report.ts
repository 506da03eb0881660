import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Measure, Row, Settings } from './context.js';
import { ROOT } from './proc.js';
import type { Latency } from './stats.js';

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  loadBefore: number[];
  loadAfter?: number[];
}
export interface Commit {
  sha: string;
  subject: string;
  dirty: boolean;
}

export function machine(): Machine {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model ?? 'unknown',
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    loadBefore: os.loadavg().map((l) => Number(l.toFixed(2))),
  };
}

export function commit(): Commit {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
  return {
    sha: git('rev-parse', 'HEAD') || 'unknown',
    subject: git('log', '-1', '--format=%s'),
    dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
  };
}

export interface TargetReport {
  readonly target: string;
  readonly configuration: string;
  readonly servers: Record<string, string>;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly rows: Row[];
  readonly failures: Array<{ scenario: string; error: string }>;
}

export interface Report {
  readonly tool: string;
  readonly mode: 'quick' | 'full';
  readonly machine: Machine;
  readonly commit: Commit;
  readonly settings: Settings;
  readonly notes: string[];
  readonly targets: TargetReport[];
}

const ms = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '—' : v < 10 ? v.toFixed(2) : v.toFixed(1));
const num = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? '—' : v >= 100 ? Math.round(v).toLocaleString('en') : v.toFixed(1));
const lat = (l: Latency | undefined) => (l && l.samples ? `${ms(l.p50)} / ${ms(l.p95)} / ${ms(l.p99)}` : '—');
const thr = (m: Measure | undefined) => m?.value ?? (m?.throughput !== undefined ? `${num(m.throughput)} ${m.unit ?? ''}`.trim() : '—');
const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)}`;
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const compact = (m: Measure | undefined) => {
  if (!m) return '—';
  if (m.value) return m.value;
  const l = m.latency && m.latency.samples ? `, p99 ${ms(m.latency.p99)} ms` : '';
  return `${thr(m)}${l}${m.errors ? `, ${m.errors} errors` : ''}`;
};

/** One line per scenario, the configurations side by side (ours / baseline), for the README. */
export function summary(report: Report): string {
  const key = (scenario: string) => scenario.replace(/@ \d+\/s/, '@ rate');
  const keys: string[] = [];
  for (const t of report.targets) for (const r of t.rows) if (!keys.includes(key(r.scenario))) keys.push(key(r.scenario));
  const head = ['Scenario', 'Target', ...report.targets.flatMap((t) => [`${t.target}: ours`, `${t.target}: baseline`, 'met'])];
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const k of keys) {
    const rows = report.targets.map((t) => t.rows.find((r) => key(r.scenario) === k));
    const any = rows.find(Boolean)!;
    out.push(
      `| ${[
        k,
        any.target,
        ...rows.flatMap((r) =>
          r
            ? [
                `${r.scenario !== k ? `${r.scenario.replace(/^.*@ /, '@ ')}: ` : ''}${compact(r.result)}`,
                `${r.scenario !== k && r.baseline ? `@ ${/(\d+)\/s for/.exec(r.baseline.load)?.[1] ?? '?'}/s: ` : ''}${compact(r.baseline)}`,
                r.met === null ? 'n/a' : r.met ? 'yes' : '**no**',
              ]
            : ['—', '—', '—'],
        ),
      ]
        .map(cell)
        .join(' | ')} |`,
    );
  }
  return out.join('\n');
}

/** One Markdown table per target, with the run's machine, commit and configuration above it. */
export function markdown(report: Report): string {
  const c = report.commit;
  const m = report.machine;
  const out: string[] = [];
  out.push(`Mode \`${report.mode}\` · commit \`${c.sha.slice(0, 10)}\`${c.dirty ? ' (with uncommitted changes)' : ''} “${c.subject}”`);
  out.push(
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}, Node ${m.node}. Load tool and servers share these cores` +
      ` (load average ${m.loadBefore.join(' / ')} before the run${m.loadAfter ? `, ${m.loadAfter.join(' / ')} after` : ''}: other work on the machine shows here).`,
  );
  for (const note of report.notes) out.push(`- ${note}`);
  for (const t of report.targets) {
    out.push('', `### ${t.configuration}`, '');
    const servers = Object.entries(t.servers)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; ');
    out.push(`Run ${t.startedAt} → ${t.finishedAt}${servers ? `; ${servers}` : ''}.`, '');
    out.push(
      '| Scenario | Load | Throughput | p50 / p95 / p99 ms | Errors | Baseline (same run) | Baseline throughput | Baseline p50 / p95 / p99 ms | Ratio | Target | Met | Peak RSS MB |',
    );
    out.push('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of t.rows) {
      const rss = Object.entries(r.peakRss ?? {})
        .map(([role, bytes]) => `${role} ${mb(bytes)}`)
        .join(', ');
      out.push(
        `| ${[
          r.scenario,
          r.result.load,
          thr(r.result),
          lat(r.result.latency),
          r.result.errors === undefined ? '—' : String(r.result.errors),
          r.baseline ? `${r.baseline.what}; ${r.baseline.load}` : '—',
          thr(r.baseline),
          lat(r.baseline?.latency),
          r.ratio ?? '—',
          r.target,
          r.met === null ? 'n/a' : r.met ? '**yes**' : '**no**',
          rss || '—',
        ]
          .map(cell)
          .join(' | ')} |`,
      );
    }
    const notes = t.rows.flatMap((r) => (r.notes ?? []).map((n) => `- ${r.scenario}: ${n}`));
    if (notes.length) out.push('', ...notes);
    for (const f of t.failures) out.push(`- **${f.scenario} failed**: ${f.error.split('\n')[0]}`);
  }
  return `${out.join('\n')}\n`;
}

/** `bench/results/<timestamp>-<target>.json` and `.md` for each target, and `latest.md` for the whole run. */
export function write(report: Report, stamp: string): string[] {
  const dir = path.join(ROOT, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const written: string[] = [];
  for (const t of report.targets) {
    const one: Report = { ...report, targets: [t] };
    const base = path.join(dir, `${stamp}-${t.target}`);
    writeFileSync(`${base}.json`, `${JSON.stringify(one, null, 2)}\n`);
    writeFileSync(`${base}.md`, `# Benchmark ${stamp} (${t.target})\n\n${markdown(one)}`);
    written.push(`${base}.json`, `${base}.md`);
  }
  const latest = path.join(dir, 'latest.md');
  writeFileSync(latest, `# Latest benchmark (${stamp})\n\n${summary(report)}\n\n${markdown(report)}`);
  written.push(latest);
  return written;
}
