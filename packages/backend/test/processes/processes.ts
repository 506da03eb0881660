import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '@servicedesk/adapters-persistence';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

let built = false;
/**
 * The JavaScript `npm start` runs for a source entry (`packages/backend/src/main.ts` → its
 * `dist/src/main.js`), brought up to date once per test process by scripts/build.mjs (only what
 * changed). Child processes start from it: transpiling on the fly with tsx doubled every start.
 */
export function builtEntry(sourceEntry: string): string {
  if (!built) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'ignore' });
    built = true;
  }
  const relative = path.isAbsolute(sourceEntry) ? path.relative(ROOT, sourceEntry) : sourceEntry;
  const match = /^(packages\/[^/]+)\/src\/(.+)\.ts$/.exec(relative);
  if (!match) throw new Error(`not an entry of a package's src: ${sourceEntry}`);
  return path.join(ROOT, match[1]!, 'dist/src', `${match[2]}.js`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** The nats-server binary (Debian's package), or null when it is not installed. */
export function natsServerBinary(): string | null {
  for (const candidate of ['nats-server', '/usr/sbin/nats-server', '/usr/bin/nats-server']) {
    if (spawnSync(candidate, ['--version']).status === 0) return candidate;
  }
  return null;
}

async function waitForPort(port: number, ms = 10_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    }).catch(() => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`port ${port} did not open`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A private JetStream server started for a suite, or null when nats-server is not installed
 * (the suite then skips; in CI, where .ci/run installs it, that is an error).
 */
export async function privateNatsServer(): Promise<NatsServer | null> {
  const binary = natsServerBinary();
  if (!binary) {
    if (process.env.CI === 'true') throw new Error('nats-server must be installed in CI (.ci/run installs it)');
    return null;
  }
  const server = new NatsServer(binary, await freePort());
  await server.start();
  return server;
}

/** A private JetStream server for one test file: it can be stopped and started again on its store. */
export class NatsServer {
  private child: ChildProcess | null = null;
  readonly store = mkdtempSync(path.join(os.tmpdir(), 'sd-nats-'));
  constructor(
    private readonly binary: string,
    readonly port: number,
  ) {}
  get url() {
    return `nats://127.0.0.1:${this.port}`;
  }
  async start() {
    this.child = spawn(this.binary, ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.store], { stdio: 'ignore' });
    await waitForPort(this.port);
  }
  async stop() {
    const child = this.child;
    if (!child) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
  async dispose() {
    await this.stop();
    rmSync(this.store, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

/** A database of its own on the TEST_DATABASE_URL server, dropped afterwards. */
export async function freshDatabase(base: string) {
  const name = `sd_proc_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  return {
    url: url.toString(),
    async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
      return (await client.query(sql, params)).rows as T[];
    },
    async connect() {
      await client.connect();
    },
    async drop() {
      await client.end().catch(() => undefined);
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** One of the two executables, run from source as its own process. */
export class Service {
  private child: ChildProcess | null = null;
  readonly output: string[] = [];
  constructor(
    private readonly entry: string,
    private readonly env: Record<string, string>,
  ) {}
  start() {
    this.child = spawn(process.execPath, [builtEntry(this.entry)], {
      cwd: ROOT,
      env: { ...process.env, ...this.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.on('data', (d) => this.output.push(String(d)));
    this.child.stderr!.on('data', (d) => this.output.push(String(d)));
  }
  /** SIGKILL: the process dies where it stands, as in a crash. */
  async kill(signal: NodeJS.Signals = 'SIGKILL') {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = null;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}

/** Where a backend process keeps its data in a test: its environment and its database, read by the test. */
export interface ProcessTarget {
  readonly env: Record<string, string>;
  /** Whether the database can be read while the backend runs (PGlite is one process's: only once it has stopped). */
  readonly live: boolean;
  query(sql: string): Promise<Array<Record<string, unknown>>>;
  dispose(): Promise<void>;
}

/**
 * The super admin a migrated data dir was seeded with (migratedDataDir): a test that starts on a
 * copy logs in as this one, its ADMIN_PASSWORD at the first start.
 */
export const SNAPSHOT_ADMIN = { email: 'admin@admin.com', password: 'process-tests-snapshot-admin' } as const;

let snapshot: Promise<string> | null = null;

/**
 * A DATA_DIR the built backend has started on once (initdb, every migration, the seed as
 * SNAPSHOT_ADMIN) and stopped cleanly with SIGTERM, made once per test process: a test that does not
 * test the first start copies it instead of spending that start again. Removed when the process ends.
 */
export function migratedDataDir(): Promise<string> {
  snapshot ??= snapshotDataDir();
  return snapshot;
}

async function snapshotDataDir(): Promise<string> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sd-snapshot-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const child = spawn(process.execPath, [builtEntry('packages/backend/src/main.ts')], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', ADMIN_PASSWORD: SNAPSHOT_ADMIN.password },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const read = (d: Buffer) => {
      output += String(d);
      if (output.includes('"msg":"backend listening"')) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    void exited.then((code) => reject(new Error(`the snapshot's backend exited (${code}) before listening:\n${output.slice(-4000)}`)));
  });
  child.kill('SIGTERM');
  const code = await exited;
  if (code !== 0) throw new Error(`the snapshot's backend did not stop cleanly (${code}):\n${output.slice(-4000)}`);
  if (existsSync(path.join(dir, 'servicedesk.lock'))) throw new Error("the snapshot's backend left its DATA_DIR lock");
  return dir;
}

/** The embedded default: PGlite and the in-process broker in a DATA_DIR of its own, empty. */
export function embeddedTarget(prefix: string): ProcessTarget {
  return embeddedTargetIn(mkdtempSync(path.join(os.tmpdir(), prefix)));
}

/**
 * The embedded default on a copy of the migrated data dir (migratedDataDir): for a test of what
 * comes after the first start, whose admin is SNAPSHOT_ADMIN.
 */
export async function migratedEmbeddedTarget(prefix: string): Promise<ProcessTarget> {
  const source = await migratedDataDir();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  cpSync(source, dataDir, { recursive: true });
  return embeddedTargetIn(dataDir);
}

function embeddedTargetIn(dataDir: string): ProcessTarget {
  return {
    env: { DATA_DIR: dataDir },
    live: false,
    async query(sql) {
      const db = await openDatabase({ dataDir: path.join(dataDir, 'pglite') });
      try {
        return await db.orm.em.fork().getConnection().execute(sql);
      } finally {
        await db.close();
      }
    },
    async dispose() {
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

/**
 * A database of its own on TEST_DATABASE_URL and a private NATS, with the channel runtime embedded
 * in the backend; null when either is not available (the suite then skips).
 */
export async function postgresTarget(prefix: string): Promise<ProcessTarget | null> {
  const base = integrationUrl('TEST_DATABASE_URL');
  if (!base) return null;
  const nats = await privateNatsServer();
  if (!nats) return null;
  const db = await freshDatabase(base);
  await db.connect();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: db.url, BROKER_URL: nats.url, CHANNEL_RUNTIME: 'embedded' },
    live: true,
    query: (sql) => db.query(sql),
    async dispose() {
      await db.drop();
      await nats.dispose();
      rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}
