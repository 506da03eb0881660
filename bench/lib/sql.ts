import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

/** The statements a transaction runs. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/**
 * Direct SQL on the bench database, for seeding and for the baselines: a `pg` pool on
 * PostgreSQL, or the embedded PGlite opened in this process while the backend is stopped.
 */
export interface Sql extends Queryable {
  readonly kind: 'postgresql' | 'pglite';
  /** Several statements separated by `;`, no parameters. */
  exec(sql: string): Promise<void>;
  tx<T>(work: (q: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function postgresSql(url: string, max: number): Sql {
  const pool = new pg.Pool({ connectionString: url, max });
  return {
    kind: 'postgresql',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await pool.query(sql, params)).rows as T[];
    },
    async exec(sql: string) {
      await pool.query(sql);
    },
    async tx<T>(work: (q: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work({ query: async <R>(s: string, p: unknown[] = []) => (await client.query(s, p)).rows as R[] });
        await client.query('commit');
        return result;
      } catch (err) {
        await client.query('rollback').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async close() {
      await pool.end();
    },
  };
}

export async function pgliteSql(dataDir: string): Promise<Sql> {
  const db = await PGlite.create(dataDir);
  return {
    kind: 'pglite',
    async query<T>(sql: string, params: unknown[] = []) {
      return (await db.query(sql, params)).rows as T[];
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    tx: <T>(work: (q: Queryable) => Promise<T>) =>
      db.transaction(async (t) => work({ query: async <R>(s: string, p: unknown[] = []) => (await t.query(s, p)).rows as R[] })),
    async close() {
      await db.close();
    },
  };
}
