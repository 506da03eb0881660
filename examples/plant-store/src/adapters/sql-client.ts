import type { PGlite } from '@electric-sql/pglite';
import type { Pool } from 'pg';

/**
 * The one call SqlPlants makes. Keeping it this small lets the same adapter run on a
 * PostgreSQL server (node-postgres) and on embedded PGlite, which share the SQL dialect.
 */
export interface SqlClient {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<{ rows: Row[] }>;
}

export function pgPoolClient(pool: Pool): SqlClient {
  return {
    async query(text, params = []) {
      return { rows: (await pool.query(text, [...params])).rows };
    },
  };
}

export function pgliteClient(db: PGlite): SqlClient {
  return {
    async query<Row>(text: string, params: readonly unknown[] = []) {
      return { rows: (await db.query<Row>(text, [...params])).rows };
    },
  };
}
