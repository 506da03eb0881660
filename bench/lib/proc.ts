import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (bench/ sits directly under it). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** True when something accepts TCP connections at host:port within `ms`. */
export function reachable(host: string, port: number, ms = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(ms, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.connect(port, host);
  });
}

/** Polls `probe` until it returns something truthy; bounded by `ms`. */
export async function until<T>(what: string, probe: () => Promise<T | false | null | undefined>, ms = 30_000, every = 100): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await sleep(every);
  }
}

/** VmRSS and VmHWM (peak) of a process in bytes, from /proc; null when it is gone. */
export function memoryOf(pid: number): { rss: number; hwm: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) * 1024;
    return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
  } catch {
    return null;
  }
}

/** The processes whose memory a scenario reports, by role. */
export type Watched = Record<string, () => number | undefined>;

/** Samples VmRSS of watched processes every `every` ms; `stop()` returns the peak of each. */
export function sampleRss(watched: () => Watched, every = 100) {
  const peak: Record<string, number> = {};
  const take = () => {
    for (const [role, pidOf] of Object.entries(watched())) {
      const pid = pidOf();
      if (!pid) continue;
      const m = memoryOf(pid);
      if (m) peak[role] = Math.max(peak[role] ?? 0, m.rss);
    }
  };
  take();
  const timer = setInterval(take, every);
  return {
    stop(): Record<string, number> {
      clearInterval(timer);
      take();
      return { ...peak };
    },
  };
}

/** A Node process of this repository run from TypeScript source, as the README runs the executables. */
export class NodeService {
  private child: ChildProcess | null = null;
  private readonly output: string[] = [];
  constructor(
    readonly role: string,
    private readonly entry: string,
    private readonly env: Record<string, string>,
    private readonly nodeArgs: string[] = [],
    /** The source tree the entry is in (the working tree, or a snapshot of a commit). */
    private readonly root: string = ROOT,
    /** Plain JavaScript (a built `dist/`), started without tsx. */
    private readonly compiled = false,
  ) {}

  get pid(): number | undefined {
    return this.child?.exitCode === null ? this.child.pid : undefined;
  }

  start(): void {
    const loader = this.compiled ? [] : ['--conditions=source', '--import', 'tsx'];
    const child = spawn(process.execPath, [...this.nodeArgs, ...loader, path.join(this.root, this.entry)], {
      cwd: this.root,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (d: Buffer) => {
      this.output.push(String(d));
      if (this.output.length > 200) this.output.splice(0, this.output.length - 200);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
  }

  /** The last lines it printed (for failures). */
  tail(lines = 30): string {
    return this.output.join('').split('\n').slice(-lines).join('\n');
  }

  exited(): boolean {
    return !this.child || this.child.exitCode !== null || this.child.signalCode !== null;
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
  async stop(graceMs = 15_000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
    this.child = null;
  }
}

/** The nats-server binary (Debian's package), or null. */
export function natsServerBinary(): string | null {
  for (const candidate of ['nats-server', '/usr/sbin/nats-server', '/usr/bin/nats-server']) {
    if (spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  return null;
}

/** A private JetStream server on a loopback port with a temporary store. */
export class PrivateNats {
  private child: ChildProcess | null = null;
  constructor(
    private readonly binary: string,
    readonly port: number,
    private readonly store: string,
  ) {}
  get url() {
    return `nats://127.0.0.1:${this.port}`;
  }
  get pid(): number | undefined {
    return this.child?.pid;
  }
  async start() {
    this.child = spawn(this.binary, ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.store], { stdio: 'ignore' });
    await until('nats-server', async () => reachable('127.0.0.1', this.port), 10_000);
  }
  async stop() {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}

/** CPU time (user + system) a process has used, in milliseconds; null when it is gone. */
export function cpuMs(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return null;
  }
}

/** The share of one core each process used over `ms`. */
export async function cpuLoad(pids: Array<number | undefined>, ms: number): Promise<number[]> {
  const before = pids.map((p) => (p ? cpuMs(p) : null));
  const start = Date.now();
  await sleep(ms);
  const elapsed = Date.now() - start;
  return pids.map((p, i) => {
    const now = p ? cpuMs(p) : null;
    const b = before[i];
    return now !== null && b !== null && b !== undefined ? (now - b) / elapsed : 0;
  });
}

/**
 * Waits until the given processes are quiet: under their idle load (`floor`, e.g. a profiler's
 * own sampling) plus `threshold` of one core each over two
 * consecutive 500 ms windows, so that work left behind by one scenario (a backlog of sends or
 * inbound messages) does not land in the next. Bounded by `maxMs`; returns how long it waited
 * and whether they became quiet.
 */
export async function quiesce(
  pids: Array<number | undefined>,
  maxMs: number,
  floor: number[] = [],
  threshold = 0.05,
): Promise<{ waitedMs: number; quiet: boolean; load: number[] }> {
  const start = Date.now();
  let calm = 0;
  let last = pids.map((p) => (p ? cpuMs(p) : null));
  let at = Date.now();
  let load: number[] = [];
  while (Date.now() - start < maxMs) {
    await sleep(500);
    const current = pids.map((p) => (p ? cpuMs(p) : null));
    const elapsed = Date.now() - at;
    at = Date.now();
    load = current.map((c, i) => (c !== null && last[i] !== null && last[i] !== undefined ? (c - last[i]!) / elapsed : 0));
    last = current;
    calm = load.every((l, i) => l < (floor[i] ?? 0) + threshold) ? calm + 1 : 0;
    if (calm >= 2) return { waitedMs: Date.now() - start, quiet: true, load };
  }
  return { waitedMs: Date.now() - start, quiet: false, load };
}
