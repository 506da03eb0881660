import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Where a function lives: a package of ours, a dependency, Node itself, or the engine. */
function owner(url: string): string {
  if (!url) return '(engine: GC, idle, native)';
  if (url.startsWith('node:')) return 'node:internal';
  const dep = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dep) return dep[1]!;
  const ours = /\/(packages|examples)\/([^/]+)\//.exec(url);
  if (ours) return `@servicedesk/${ours[2]}`;
  return url.replace(/^file:\/\//, '');
}

/** A span of the monotonic clock (µs, as `process.hrtime` and V8's profiler both count it), e.g. one scenario. */
export interface Window {
  readonly label: string;
  readonly fromUs: number;
  readonly toUs: number;
}

/** Self time by owner and by function of one `.cpuprofile`, as text; only the samples inside `window` when given. */
export function summarizeProfile(file: string, top = 15, window?: Window): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i]!;
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (window && (at < window.fromUs || at > window.toUs)) continue;
    self.set(id, (self.get(id) ?? 0) + delta);
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let idle = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    const name = node.callFrame.functionName || '(anonymous)';
    if (name === '(idle)') {
      idle += us;
      continue;
    }
    const o = node.callFrame.url ? owner(node.callFrame.url) : name === '(garbage collector)' ? '(garbage collector)' : '(engine: native, program)';
    byOwner.set(o, (byOwner.get(o) ?? 0) + us);
    const where = node.callFrame.url ? `${path.basename(node.callFrame.url)}:${node.callFrame.lineNumber + 1}` : '';
    const key = `${name} ${where} [${o}]`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  }
  // Inclusive time of our own functions (packages/*): what the busy time was spent doing, top-down.
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const inclusive = new Map<string, number>();
  for (const [id, us] of self) {
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur)!.callFrame;
      if (!/\/(packages|examples)\//.test(f.url) || f.url.includes('node_modules')) continue;
      const key = `${f.functionName || '(anonymous)'} ${path.basename(f.url)}:${f.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + us);
    }
  }
  if (total === 0) return `${window ? `[${window.label}] ` : ''}${path.basename(path.dirname(file))}: no samples`;
  const busy = total - idle || 1;
  const pct = (us: number) => `${((us / busy) * 100).toFixed(1).padStart(5)} %`;
  const lines = [
    `${window ? `[${window.label}] ` : ''}${path.basename(path.dirname(file))}/${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled, ${((idle / total) * 100).toFixed(0)} % idle; shares of the busy time:`,
  ];
  lines.push('  by package:');
  for (const [o, us] of [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(us)}  ${o}`);
  lines.push('  by function (self time):');
  for (const [f, us] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(us)}  ${f}`);
  lines.push('  our functions, inclusive (time in them and what they call):');
  for (const [f, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`    ${pct(us)}  ${f}`);
  return lines.join('\n');
}

/**
 * Every process's main-thread profile under `dir` (one sub-directory per process; the largest
 * file of each is its main thread), over each window (one per scenario) or over its whole life.
 */
export function summarizeProfiles(dir: string, windows: readonly Window[] = [], top = 15): string {
  const entries = readdirSync(dir, { withFileTypes: true });
  const files: string[] = entries.filter((e) => e.isFile() && e.name.endsWith('.cpuprofile')).map((e) => path.join(dir, e.name));
  for (const sub of entries.filter((e) => e.isDirectory())) {
    const inside = readdirSync(path.join(dir, sub.name))
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(dir, sub.name, f));
    const main = inside.sort((a, b) => statSync(b).size - statSync(a).size)[0];
    if (main) files.push(main);
  }
  if (!files.length) return `no .cpuprofile in ${dir} (a process killed before it exited writes none)`;
  const parts: string[] = [];
  for (const f of files.sort()) {
    if (!windows.length) parts.push(summarizeProfile(f, top));
    const kind = path.basename(path.dirname(f)).split('-')[0];
    for (const w of windows.filter((x) => x.label.startsWith(`${kind}:`))) parts.push(summarizeProfile(f, top, w));
  }
  return parts.join('\n\n');
}

// `node --import tsx bench/lib/profile.ts <dir or file>` summarizes profiles written earlier.
if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  const target = process.argv[2];
  if (!target) {
    process.stderr.write('usage: profile.ts <dir | file.cpuprofile>\n');
    process.exit(2);
  }
  process.stdout.write(`${target.endsWith('.cpuprofile') ? summarizeProfile(target) : summarizeProfiles(target)}\n`);
}
