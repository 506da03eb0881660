import { createHash } from 'node:crypto';
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

/** The URL of the database `name` on the server of TEST_DATABASE_URL. */
function databaseUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database of its own on the PostgreSQL server of TEST_DATABASE_URL, and how to drop it: empty,
 * or a copy of `template`.
 */
export async function scratchDatabase(template?: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (!process.env.TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `sd_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await admin((client) => client.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  return {
    url: databaseUrl(name),
    drop: () => admin((client) => client.query(`drop database if exists ${name} with (force)`)).then(() => undefined),
  };
}

/** A client on the TEST_DATABASE_URL server's default database, for creating and dropping databases. */
async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The migrated template of each migration list, made once per test process (by `templateFor`). */
const templates = new Map<string, Promise<string>>();

/**
 * A database migrated once with these options, kept as a template: each test database is then a
 * copy (`create database … template …`, a file copy on the server) instead of a run of every
 * migration, which took seconds per test backend. Templates of finished test processes are dropped.
 */
function templateFor(options: Partial<DatabaseOptions>): Promise<string> {
  const key = createHash('sha1')
    .update(JSON.stringify([options.migrationsTable ?? null, (options.migrations ?? []).map((m) => m.name)]))
    .digest('hex')
    .slice(0, 12);
  let template = templates.get(key);
  if (!template) {
    template = (async () => {
      const name = `sd_tpl_${process.pid}_${key}`;
      await admin(async (client) => {
        const stale = await client.query<{ datname: string }>("select datname from pg_database where datname like 'sd\\_tpl\\_%'");
        for (const { datname } of stale.rows) {
          const pid = Number(datname.split('_')[2]);
          if (pid !== process.pid && !alive(pid)) await client.query(`drop database if exists ${datname} with (force)`);
        }
        await client.query(`drop database if exists ${name} with (force)`);
        await client.query(`create database ${name}`);
      });
      const db = await openDatabase({ ...options, url: databaseUrl(name), poolMax: 4 });
      await db.migrate();
      await db.close();
      return name;
    })();
    templates.set(key, template);
  }
  return template;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * A migrated database of its own on the PostgreSQL server of TEST_DATABASE_URL (a copy of a
 * template migrated once per process), dropped on close, so that parallel runs and reruns never
 * see each other's rows.
 */
export async function openPostgresDatabase(options: Partial<DatabaseOptions> = {}): Promise<Database> {
  const scratch = await scratchDatabase(await templateFor(options));
  const db = await openDatabase({ ...options, url: scratch.url, poolMax: 4 });
  return {
    ...db,
    async close() {
      await db.close();
      await scratch.drop();
    },
  };
}

/** The tables `truncate` empties: every table of the current schema but the migrations' own. */
const TABLES = "select tablename from pg_tables where schemaname = current_schema() and tablename <> 'mikro_orm_migrations'";

/**
 * Empties every table of the current schema and restarts the sequences of their columns, in one
 * statement run on the server: all the tables locked as TRUNCATE locks them (so work in flight
 * finishes first and nothing writes until the end), then a DELETE of each with the foreign-key
 * triggers off (the `replica` role: every table is emptied, so no order is needed), then each owned
 * sequence set back to its start. TRUNCATE did the same but replaces every table's files, which on
 * PostgreSQL took about a second for the ~80 tables at every test's reset; these deletes of a few
 * rows take milliseconds. Sequences are read from the catalog at each call, so tables a later
 * migration adds are emptied too.
 */
const EMPTY_EVERY_TABLE = `do $empty$
declare
  tables text;
  t record;
begin
  select string_agg(format('%I', tablename), ', ') into tables from (${TABLES}) listed;
  if tables is null then return; end if;
  set local session_replication_role = replica;
  execute 'lock table ' || tables || ' in access exclusive mode';
  for t in ${TABLES} loop
    execute format('delete from %I', t.tablename);
  end loop;
  -- Only the sequences that handed out a value since they were last set back (the others are at their start).
  perform setval(s.oid, q.seqstart, false)
    from pg_class s
    join pg_sequence q on q.seqrelid = s.oid
    join pg_sequences used on used.schemaname = current_schema() and used.sequencename = s.relname and used.last_value is not null
    join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.deptype in ('a', 'i')
    join pg_class owner on owner.oid = d.refobjid
    join pg_namespace n on n.oid = owner.relnamespace
   where s.relkind = 'S' and n.nspname = current_schema() and owner.relname <> 'mikro_orm_migrations';
end
$empty$`;

/** Databases whose user may not turn foreign-key triggers off (not a superuser): emptied with TRUNCATE. */
const truncateOnly = new WeakSet<Database>();

/** Empties every table of the backend schema and restarts the id sequences. */
export async function truncate(db: Database): Promise<void> {
  const conn = db.orm.em.getConnection();
  let sql = EMPTY_EVERY_TABLE;
  if (truncateOnly.has(db)) {
    const rows: Array<{ tablename: string }> = await conn.execute(TABLES);
    if (!rows.length) return;
    sql = `truncate ${rows.map((r) => `"${r.tablename}"`).join(', ')} restart identity cascade`;
  }
  // A running backend's background work (job claims, a relay after commit) may hold row locks in
  // another order; PostgreSQL then aborts one side as a deadlock (40P01). Emptying is idempotent: again.
  for (let attempt = 1; ; attempt++) {
    try {
      await conn.execute(sql);
      return;
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === '42501' && sql === EMPTY_EVERY_TABLE) {
        truncateOnly.add(db);
        return truncate(db);
      }
      if (code !== '40P01' || attempt >= 5) throw err;
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
  fixtureOn: (db: Database) => F,
  contract: (name: string, make: () => Promise<F>) => void,
  options: Partial<DatabaseOptions> = {},
): void {
  const targets: Array<[string, () => Promise<Database>, () => boolean]> = [
    ['PGlite', () => openPgliteDatabase(options), () => true],
    ['PostgreSQL', () => openPostgresDatabase(options), () => Boolean(integrationUrl('TEST_DATABASE_URL'))],
  ];
  for (const [name, open, enabled] of targets) {
    describe(name, () => {
      let db: Database | undefined;
      before(async function () {
        if (!enabled()) return this.skip();
        db = await open();
      });
      after(async () => {
        await db?.close();
      });
      beforeEach(function () {
        const test = this.currentTest;
        if (!db || !test?.fn) return;
        const fn = test.fn as (this: Mocha.Context) => Promise<unknown>;
        test.fn = function (this: Mocha.Context) {
          return RequestContext.create(db!.orm.em, () => fn.call(this));
        };
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
    listener(typeof config === 'string' ? config : (config?.text ?? ''));
    return original.apply(this, args);
  };
  return () => {
    proto.query = original;
  };
}
