import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { api } from './http.js';
import { freePort, memoryOf, NodeService, PrivateNats, until, type Watched } from './proc.js';
import { pgliteSql, postgresSql, type Sql } from './sql.js';
import { FakeGraph } from './fake-graph.js';

export type TargetKind = 'embedded' | 'postgres';

export const ADMIN = { email: 'admin@admin.com', password: 'bench-admin-password-0123' };
export const META_APP_SECRET = 'bench-meta-app-secret-0123456789';
const JWT_SECRET = 'bench-jwt-secret-bench-jwt-secret-0123456789';

export interface TargetOptions {
  readonly kind: TargetKind;
  /** postgres: the server on which a fresh database is created and dropped afterwards. */
  readonly databaseUrl?: string;
  /** postgres: a NATS URL to use; without it a private nats-server is started. */
  readonly natsUrl?: string;
  readonly natsBinary?: string | null;
  /** Directory for `--cpu-prof` output of backend and runtime, when profiling. */
  readonly profileDir?: string;
  /** The source tree to start the executables from. */
  readonly root: string;
  /** Extra Node options for backend and runtime (a preload of tools/count-queries.mjs). */
  readonly nodeArgs?: string[];
  /** Start the built JavaScript (`dist/`, as `npm run start:backend` does) instead of the TypeScript sources. */
  readonly compiled?: boolean;
  readonly log: (line: string) => void;
}

/**
 * One configuration under test: the backend (and, on PostgreSQL + NATS, the channel runtime) as
 * child processes on loopback, with their own data, removed afterwards.
 */
export class Target {
  readonly kind: TargetKind;
  baseUrl = '';
  token = '';
  backend!: NodeService;
  runtime: NodeService | undefined;
  nats: PrivateNats | undefined;
  natsUrl: string | undefined;
  dbUrl: string | undefined;
  dbName: string | undefined;
  private readonly dataDir = mkdtempSync(path.join(os.tmpdir(), 'sd-bench-'));
  private pool: Sql | undefined;
  /** Meta's Graph API on loopback: creating a page connection asks it whose the token is. */
  private readonly graph = new FakeGraph();
  /** Versions of the servers used, for the report. */
  readonly servers: Record<string, string> = {};

  constructor(readonly options: TargetOptions) {
    this.kind = options.kind;
  }

  get label() {
    return this.kind === 'embedded'
      ? 'embedded (PGlite, in-process broker, runtime in the backend)'
      : 'PostgreSQL + NATS JetStream (backend and channel runtime as two processes)';
  }
  get root() {
    return this.options.root;
  }
  get wsBase() {
    return this.baseUrl.replace('http', 'ws');
  }

  /** The processes whose memory is reported. */
  watched(): Watched {
    return {
      backend: () => this.backend?.pid,
      ...(this.kind === 'postgres' ? { runtime: () => this.runtime?.pid } : {}),
      ...(this.nats ? { 'nats-server': () => this.nats?.pid } : {}),
      'bench runner (load)': () => process.pid,
    };
  }

  rssOf(role: 'backend' | 'runtime'): number | undefined {
    const pid = role === 'backend' ? this.backend.pid : this.runtime?.pid;
    return pid ? memoryOf(pid)?.rss : undefined;
  }

  async start(): Promise<void> {
    const port = await freePort();
    this.baseUrl = `http://127.0.0.1:${port}`;
    const common: Record<string, string> = { LOG_LEVEL: 'warn' };
    await this.graph.start();
    const backendEnv: Record<string, string> = {
      ...common,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: path.join(this.dataDir, 'backend'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      META_APP_SECRET,
      META_VERIFY_TOKEN: 'bench-verify-token',
      ACCESS_TOKEN_TTL: '21600',
      META_GRAPH_URL: this.graph.url,
    };
    if (this.kind === 'postgres') {
      await this.createDatabase();
      if (this.options.natsUrl) {
        this.natsUrl = this.options.natsUrl;
      } else {
        if (!this.options.natsBinary) throw new Error('no NATS: set BENCH_NATS_URL or install nats-server');
        mkdirSync(path.join(this.dataDir, 'nats'), { recursive: true });
        this.nats = new PrivateNats(this.options.natsBinary, await freePort(), path.join(this.dataDir, 'nats'));
        await this.nats.start();
        this.natsUrl = this.nats.url;
      }
      Object.assign(backendEnv, { DATABASE_URL: this.dbUrl!, BROKER_URL: this.natsUrl, JWT_SECRET });
      this.runtime = new NodeService(
        'runtime',
        this.options.compiled ? 'packages/channel-runtime/dist/src/main.js' : 'packages/channel-runtime/src/main.ts',
        {
          ...common,
          DATABASE_URL: this.dbUrl!,
          BROKER_URL: this.natsUrl,
          CHANNEL_CONNECTORS: 'sandbox',
          DATA_DIR: path.join(this.dataDir, 'runtime'),
        },
        this.profileArgs('runtime'),
        this.options.root,
        this.options.compiled,
      );
    }
    const entry = this.options.compiled ? 'packages/backend/dist/src/main.js' : 'packages/backend/src/main.ts';
    this.backend = new NodeService('backend', entry, backendEnv, this.profileArgs('backend'), this.options.root, this.options.compiled);
    await this.startBackend();
    if (this.runtime) this.runtime.start();
    const login = await api(this.baseUrl).post<{ token: string }>('/auth/login', ADMIN);
    this.token = login.token;
  }

  private profileArgs(role: string): string[] {
    const extra = this.options.nodeArgs ?? [];
    const dir = this.options.profileDir;
    // One directory per process: Node writes a profile per thread (tsx's loader thread too) under default names.
    return dir ? [...extra, '--cpu-prof', `--cpu-prof-dir=${path.join(dir, `${this.kind}-${role}`)}`] : extra;
  }

  private async startBackend() {
    this.backend.start();
    await until(
      'the backend to answer /version',
      async () => {
        if (this.backend.exited()) throw new Error(`the backend exited:\n${this.backend.tail()}`);
        return (await fetch(`${this.baseUrl}/version`).catch(() => null))?.ok;
      },
      120_000,
      100,
    ).catch((err) => {
      throw new Error(`${(err as Error).message}\n${this.backend.tail()}`);
    });
  }

  /**
   * Direct SQL on the bench database. On PostgreSQL a pool beside the running backend; on the
   * embedded target PGlite belongs to the backend process, so the backend is stopped, the
   * database opened here, and the backend started again afterwards.
   */
  async withSql<T>(concurrency: number, work: (sql: Sql) => Promise<T>): Promise<T> {
    if (this.kind === 'postgres') {
      const sql = postgresSql(this.dbUrl!, concurrency);
      try {
        return await work(sql);
      } finally {
        await sql.close();
      }
    }
    this.options.log('  stopping the embedded backend to open its PGlite database directly');
    await this.backend.stop();
    const sql = await pgliteSql(path.join(this.dataDir, 'backend', 'pglite'));
    try {
      return await work(sql);
    } finally {
      await sql.close();
      this.options.log('  starting the embedded backend again');
      await this.startBackend();
      this.token = (await api(this.baseUrl).post<{ token: string }>('/auth/login', ADMIN)).token;
    }
  }

  /** A pool on the bench database for reading state while the backend runs (PostgreSQL only). */
  livePool(): Sql | undefined {
    if (this.kind !== 'postgres') return undefined;
    this.pool ??= postgresSql(this.dbUrl!, 2);
    return this.pool;
  }

  private async createDatabase() {
    const base = this.options.databaseUrl!;
    this.dbName = `sd_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    try {
      await admin.query(`create database ${this.dbName}`);
      const transport = new URL(base).searchParams.has('host') ? 'over its Unix socket' : 'over TCP';
      this.servers.postgresql = `${String((await admin.query<{ v: string }>('select version() as v')).rows[0]?.v ?? '')}, ${transport}`;
    } finally {
      await admin.end();
    }
    const url = new URL(base);
    url.pathname = `/${this.dbName}`;
    this.dbUrl = url.toString();
  }

  async close(): Promise<void> {
    await this.pool?.close().catch(() => undefined);
    await this.runtime?.stop();
    await this.backend?.stop();
    await this.nats?.stop();
    await this.graph.close();
    if (this.dbName) {
      const admin = new pg.Client({ connectionString: this.options.databaseUrl! });
      await admin.connect();
      await admin
        .query(`drop database if exists ${this.dbName} with (force)`)
        .catch((err) => this.options.log(`  could not drop ${this.dbName}: ${String(err)}`));
      await admin.end();
    }
    rmSync(this.dataDir, { recursive: true, force: true });
  }
}
