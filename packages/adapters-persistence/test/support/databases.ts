import { PGlite } from '@electric-sql/pglite';
import { RequestContext } from '@mikro-orm/core';
import pg from 'pg';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/index.js';

export { expressionIndexDrift, schemaDiff } from './schema-drift.js';

let sharedPglite: Promise<PGlite> | undefined;

/** One in-memory PGlite per test run: it takes seconds to start, so suites share it. */
function pglite(): Promise<PGlite> {
  sharedPglite ??= PGlite.create();
  return sharedPglite;
}

/** A migrated database on the shared PGlite. Tables are emptied by `truncate`. */
export async function openPgliteDatabase(options: Partial<DatabaseOptions> = {}): Promise<Database> {
  const db = await openDatabase({ ...options, pglite: await pglite() });
  await db.migrate();
  return db;
}

/** An empty database of its own on the PostgreSQL server of TEST_DATABASE_URL, and how to drop it. */
export async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `sd_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/**
 * A migrated database of its own on the PostgreSQL server of TEST_DATABASE_URL, dropped on close,
 * so that parallel runs and reruns never see each other's rows.
 */
export async function openPostgresDatabase(options: Partial<DatabaseOptions> = {}): Promise<Database> {
  const scratch = await scratchDatabase();
  const db = await openDatabase({ ...options, url: scratch.url, poolMax: 4 });
  await db.migrate();
  return {
    ...db,
    async close() {
      await db.close();
      await scratch.drop();
    },
  };
}

/** Empties every table of the backend schema and restarts the id sequences. */
export async function truncate(db: Database): Promise<void> {
  const conn = db.orm.em.getConnection();
  const rows: Array<{ tablename: string }> = await conn.execute(
    "select tablename from pg_tables where schemaname = current_schema() and tablename <> 'mikro_orm_migrations'",
  );
  if (!rows.length) return;
  const sql = `truncate ${rows.map((r) => `"${r.tablename}"`).join(', ')} restart identity cascade`;
  // A running backend's background work (job claims, a relay after commit) may hold row locks in
  // another order; PostgreSQL then aborts one side as a deadlock (40P01). Emptying is idempotent: again.
  for (let attempt = 1; ; attempt++) {
    try {
      await conn.execute(sql);
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
    }
  }
}

/** Runs every test body inside a MikroORM request context, as the HTTP and broker adapters do. */
export function withContext(db: () => Database) {
  return <T>(fn: () => Promise<T>) => RequestContext.create(db().orm.em, fn);
}

/**
 * Registers a contract suite on every database: PGlite always, PostgreSQL when TEST_DATABASE_URL
 * is set. Each test body runs inside a request context, as an HTTP request does, on emptied tables.
 * `options` gives a feature's entity schemas and migrations beside the backend's.
 */
export function describeOnEachDatabase<F>(
  fixtureOn: (db: Database) => F, contract: (name: string, make: () => Promise<F>) => void, options: Partial<DatabaseOptions> = {},
): void {
  const targets: Array<[string, () => Promise<Database>, () => boolean]> = [
    ['PGlite', () => openPgliteDatabase(options), () => true],
    ['PostgreSQL', () => openPostgresDatabase(options), () => Boolean(integrationUrl('TEST_DATABASE_URL'))],
  ];
  for (const [name, open, enabled] of targets) {
    describe(name, function () {
      let db: Database | undefined;
      before(async function () {
        if (!enabled()) return this.skip();
        db = await open();
      });
      after(async () => { await db?.close(); });
      beforeEach(function () {
        const test = this.currentTest;
        if (!db || !test?.fn) return;
        const fn = test.fn as (this: Mocha.Context) => Promise<unknown>;
        test.fn = function (this: Mocha.Context) { return RequestContext.create(db!.orm.em, () => fn.call(this)); };
      });
      contract(name, async () => {
        await truncate(db!);
        return fixtureOn(db!);
      });
    });
  }
}

/**
 * Calls `listener` with the text of every query a `pg` client sends to a server (a multi-statement
 * text once; a BEGIN held for the next statement not at all), until the returned function is called.
 */
export function watchRoundTrips(listener: (sql: string) => void): () => void {
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const config = args[0] as string | { text?: string };
    listener(typeof config === 'string' ? config : config?.text ?? '');
    return original.apply(this, args);
  };
  return () => { proto.query = original; };
}
