import { PGlite } from '@electric-sql/pglite';
import { RequestContext } from '@mikro-orm/core';
import pg from 'pg';
import { openDatabase, type Database, type DatabaseOptions } from '../../src/index.js';

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

/**
 * A migrated database of its own on the PostgreSQL server of TEST_DATABASE_URL, dropped on close,
 * so that parallel runs and reruns never see each other's rows.
 */
export async function openPostgresDatabase(options: Partial<DatabaseOptions> = {}): Promise<Database> {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = `sd_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const db = await openDatabase({ ...options, url: url.toString(), poolMax: 4 });
  await db.migrate();
  return {
    ...db,
    async close() {
      await db.close();
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}

/** Empties every table of the backend schema and restarts the id sequences. */
export async function truncate(db: Database): Promise<void> {
  const conn = db.orm.em.getConnection();
  const rows: Array<{ tablename: string }> = await conn.execute(
    "select tablename from pg_tables where schemaname = current_schema() and tablename <> 'mikro_orm_migrations'",
  );
  if (rows.length) await conn.execute(`truncate ${rows.map((r) => `"${r.tablename}"`).join(', ')} restart identity cascade`);
}

/** Runs every test body inside a MikroORM request context, as the HTTP and broker adapters do. */
export function withContext(db: () => Database) {
  return <T>(fn: () => Promise<T>) => RequestContext.create(db().orm.em, fn);
}
