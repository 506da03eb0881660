import { mkdir } from 'node:fs/promises';
import type { PGlite } from '@electric-sql/pglite';
import { MikroORM, type EntitySchema, type Options } from '@mikro-orm/core';
import { fnv1a32 } from '@servicedesk/core';
import { Migrator } from '@mikro-orm/migrations';
import { BACKEND_MIGRATIONS } from './migrations/index.js';
import { BACKEND_SCHEMAS } from './schemas.js';
import { installPriorityGate, type GatedClient } from './shared/priority-gate.js';

export interface DatabaseOptions {
  /** `postgres://...` selects PostgreSQL; without it the embedded PGlite runs in process. */
  readonly url?: string;
  /** Where PGlite keeps its files; omitted means in memory (tests). */
  readonly dataDir?: string;
  /** A running PGlite to borrow (tests share one per run: it takes seconds to start). */
  readonly pglite?: PGlite;
  readonly poolMax?: number;
  readonly debug?: boolean;
  readonly entities?: EntitySchema<any>[];
  readonly migrations?: Array<{ name: string; class: new (...args: any[]) => any }>;
  readonly migrationsTable?: string;
  /**
   * PostgreSQL: create the database named in `url` when it does not exist. Off by default, so that a
   * typo in the name stops the start instead of silently opening an empty platform.
   */
  readonly createDatabase?: boolean;
}

/** The database named in DATABASE_URL does not exist on its server (and was not to be created). */
export class DatabaseMissingError extends Error {
  constructor(readonly database: string) {
    super(`database "${database}" does not exist on the server (nothing was created: create it, or run npm run migrate -- --create-database)`);
  }
}

export interface Database {
  readonly orm: MikroORM;
  readonly kind: 'postgresql' | 'pglite';
  /** The server URL, when `kind` is postgresql (another component may open its own pool). */
  readonly url?: string;
  /** The embedded engine, when `kind` is pglite (another component may borrow it). */
  readonly pglite?: PGlite;
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

interface Knex {
  client: { acquireConnection(): Promise<PgSession>; releaseConnection(c: PgSession): Promise<void> };
}
interface PgSession {
  query(sql: string, params: unknown[]): Promise<unknown>;
}

/** A stable advisory-lock key per migration history (a signed int4 for PostgreSQL). */
const migrationLockKey = (table: string) => fnv1a32(`migrations:${table}`) | 0;

/**
 * A server reached over its Unix socket: the libpq way, `?host=/var/run/postgresql` (or the
 * directory percent-encoded as the host). MikroORM reads only the URL's host name and port, so the
 * directory and the port (the socket's name, `.s.PGSQL.<port>`) are handed over explicitly.
 */
export function unixSocketOf(url: string): { host: string; port: number } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.searchParams.get('host') ?? decodeURIComponent(parsed.hostname);
  return host.startsWith('/') ? { host, port: Number(parsed.port || 5432) } : null;
}

function databaseNameOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).pathname.replace(/^\//, '')) || 'postgres';
  } catch {
    return url;
  }
}

/** Opens the backend's database: PostgreSQL when a URL is given, else embedded PGlite. Same SQL either way. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const common: Options = {
    entities: options.entities ?? BACKEND_SCHEMAS,
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: {
      migrationsList: options.migrations ?? BACKEND_MIGRATIONS,
      tableName: options.migrationsTable ?? 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    allowGlobalContext: false,
    debug: options.debug ?? false,
  };
  let orm: MikroORM;
  let ownedPglite: PGlite | undefined;
  let engine: PGlite | undefined;
  // Each driver is imported only when chosen: a PostgreSQL backend never loads PGlite, and the reverse.
  if (options.url) {
    // PostgreSqlDriver whose connection sends a transaction's deferred writes with its next statement.
    const { CoalescingPostgreSqlDriver } = await import('./shared/coalescing-driver.js');
    orm = await MikroORM.init({
      ...common,
      driver: CoalescingPostgreSqlDriver,
      clientUrl: options.url,
      ...unixSocketOf(options.url),
      pool: { min: 0, max: options.poolMax ?? 10 },
      ensureDatabase: options.createDatabase ?? false,
    } as Options);
    // Without ensureDatabase, MikroORM only logs a failed connection; a missing database stops here instead.
    const check = await orm.checkConnection();
    if (!check.ok) {
      await orm.close(true);
      if ((check.error as { code?: string } | undefined)?.code === '3D000') throw new DatabaseMissingError(databaseNameOf(options.url));
      throw check.error ?? new Error(check.reason);
    }
  } else {
    const { PGliteDriver } = await import('mikro-orm-pglite');
    let pglite = options.pglite;
    if (!pglite) {
      if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
      const { PGlite } = await import('@electric-sql/pglite');
      pglite = ownedPglite = await PGlite.create(options.dataDir);
    }
    const borrowed = pglite;
    engine = pglite;
    orm = await MikroORM.init({
      ...common,
      driver: PGliteDriver,
      dbName: 'postgres',
      driverOptions: { connection: { pglite: () => borrowed } },
    } as Options);
    // One connection: requests take it before background work waiting for it.
    installPriorityGate((orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex().client as GatedClient);
  }
  return {
    orm,
    kind: options.url ? 'postgresql' : 'pglite',
    ...(engine ? { pglite: engine } : {}),
    ...(options.url ? { url: options.url } : {}),
    async migrate() {
      if (!options.url) return (await orm.getMigrator().up()).map((m) => m.name);
      // Several processes may start at once on one database (backends, channel runtimes): the
      // first migrates under a session lock, the others wait for it and then find nothing to do.
      const knex = (orm.em.getConnection() as unknown as { getKnex(): Knex }).getKnex();
      const lockKey = migrationLockKey(options.migrationsTable ?? 'mikro_orm_migrations');
      const held = await knex.client.acquireConnection();
      try {
        await held.query('select pg_advisory_lock($1)', [lockKey]);
        try {
          return (await orm.getMigrator().up()).map((m) => m.name);
        } finally {
          await held.query('select pg_advisory_unlock($1)', [lockKey]);
        }
      } finally {
        await knex.client.releaseConnection(held);
      }
    },
    async close() {
      await orm.close(true);
      if (ownedPglite) await ownedPglite.close();
    },
  };
}
