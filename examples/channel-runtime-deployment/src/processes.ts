import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/** The repository root: both executables are run from source there, as `npm run dev` does. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A TCP port nobody listens on right now (the OS picks it), for a server we are about to start. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Resolves once something accepts connections on the port, or fails after `ms`. */
async function portOpens(port: number, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await sleep(100);
  }
  throw new Error(`nothing listened on port ${port} after ${ms} ms`);
}

/**
 * The `nats-server` executable, or null. Debian's package installs it in /usr/sbin, which is not on
 * every user's PATH, hence the explicit candidates.
 */
export function natsServerBinary(): string | null {
  for (const candidate of ['nats-server', '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server']) {
    if (spawnSync(candidate, ['--version'], { stdio: 'ignore' }).status === 0) return candidate;
  }
  return null;
}

/**
 * A JetStream server of our own on a free port with a throw-away store: its streams start empty, so
 * nothing left by another run (or another test suite on a shared server) is redelivered to us.
 */
export class PrivateNatsServer {
  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
    private readonly store: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  static async start(binary: string): Promise<PrivateNatsServer> {
    const port = await freePort();
    const store = await mkdtemp(path.join(os.tmpdir(), 'sd-deploy-nats-'));
    const child = spawn(binary, ['-js', '-a', '127.0.0.1', '-p', String(port), '-sd', store], { stdio: 'ignore' });
    const server = new PrivateNatsServer(child, port, store);
    try {
      await portOpens(port, 15_000);
    } catch (err) {
      await server.stop();
      throw err;
    }
    return server;
  }

  async stop(): Promise<void> {
    await terminate(this.child, 5_000);
    await rm(this.store, { recursive: true, force: true });
  }
}

/** SIGTERM, then SIGKILL when the process has not exited after `graceMs`. Resolves once it has exited. */
async function terminate(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * The few variables a Node process needs from its parent to run at all. Everything else a service
 * sees comes from its own configuration file, so that the backend's settings (or the shell's) never
 * leak into the runtime and the files show the whole configuration of each process.
 */
export function minimalEnv(parent: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'TZ', 'LANG', 'LC_ALL', 'SYSTEMROOT', 'NODE_EXTRA_CA_CERTS']) {
    const value = parent[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/**
 * One of the two executables run from source (`node --conditions=source --import tsx <entry>`) as
 * its own process, with exactly the environment it is given. Its output is kept line by line for
 * error messages and passed on to `onLine`.
 */
export class ServiceProcess {
  readonly lines: string[] = [];
  private child: ChildProcess | null = null;

  constructor(
    readonly name: string,
    /** The entry file, relative to the repository root. */
    readonly entry: string,
    private readonly env: Record<string, string>,
    private readonly onLine?: (line: string) => void,
  ) {}

  start(): void {
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', path.join(REPO_ROOT, this.entry)], {
      cwd: REPO_ROOT,
      env: this.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        this.lines.push(line);
        this.onLine?.(line);
      });
    }
    this.child = child;
  }

  /** Why the process is no longer running, or null while it runs (or before it was started). */
  exitReason(): string | null {
    const child = this.child;
    if (!child) return null;
    if (child.exitCode !== null) return `exited with code ${child.exitCode}`;
    if (child.signalCode !== null) return `was killed by ${child.signalCode}`;
    return null;
  }

  /** The last lines of its output, for error messages. */
  tail(count = 25): string {
    return this.lines.slice(-count).join('\n');
  }

  /** A graceful stop (SIGTERM lets it release its leases and close its connections), SIGKILL as a last resort. */
  async stop(graceMs = 15_000): Promise<void> {
    if (this.child) await terminate(this.child, graceMs);
  }
}

/** A database of our own on a PostgreSQL server, so a run never meets another run's tables. */
export interface FreshDatabase {
  readonly name: string;
  readonly url: string;
  drop(): Promise<void>;
}

/** Creates an empty database on the server `serverUrl` points at (any database on it will do). */
export async function freshDatabase(serverUrl: string): Promise<FreshDatabase> {
  // Generated here from [a-z0-9_] only, so it is safe in SQL without quoting.
  const name = `sd_runtime_deploy_${process.pid}_${randomBytes(4).toString('hex')}`;
  const onServer = async (sql: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await onServer(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    // `with (force)` ends the sessions a killed process may have left behind (PostgreSQL 13+).
    drop: () => onServer(`drop database if exists ${name} with (force)`),
  };
}
