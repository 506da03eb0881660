import { PGlite } from '@electric-sql/pglite';
import { expect } from 'chai';
import { Pool } from 'pg';
import { InMemoryPlants } from '../src/adapters/in-memory-plants.js';
import { pgliteClient, pgPoolClient } from '../src/adapters/sql-client.js';
import { SqlPlants } from '../src/adapters/sql-plants.js';
import { describePlantsContract } from './plants-contract.js';

describePlantsContract('InMemoryPlants', async () => new InMemoryPlants());

describe('SqlPlants on PGlite', () => {
  // One in-memory database for the whole file: starting PGlite costs far more than a TRUNCATE.
  let db: PGlite;
  let plants: SqlPlants;

  before(async () => {
    db = new PGlite();
    plants = await SqlPlants.open(pgliteClient(db));
  });
  after(() => db.close());

  describePlantsContract('SqlPlants (PGlite)', async () => {
    await db.query('TRUNCATE plants RESTART IDENTITY');
    return plants;
  });

  it('open is idempotent and keeps existing rows', async () => {
    await db.query('TRUNCATE plants RESTART IDENTITY');
    await plants.add({ name: 'Fern' });
    const reopened = await SqlPlants.open(pgliteClient(db));
    expect(await reopened.list()).to.deep.equal([{ id: 1, name: 'Fern' }]);
  });
});

describe('SqlPlants on PostgreSQL (TEST_DATABASE_URL)', () => {
  const url = process.env['TEST_DATABASE_URL'];
  if (!url && process.env['CI'] === 'true') throw new Error('TEST_DATABASE_URL must be set in CI');
  // A dedicated schema keeps the test away from any real `plants` table in that database.
  const schema = 'plant_store_test';
  let pool: Pool | undefined;
  let plants: SqlPlants;

  before(async function () {
    if (!url) return this.skip();
    pool = new Pool({ connectionString: url, options: `-c search_path=${schema}` });
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    const { rows } = await pool.query<{ schema: string }>('SELECT current_schema() AS schema');
    expect(rows[0]?.schema, 'search_path must point at the test schema').to.equal(schema);
    plants = await SqlPlants.open(pgPoolClient(pool));
  });
  after(async () => {
    if (!pool) return;
    await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await pool.end();
  });

  describePlantsContract('SqlPlants (PostgreSQL)', async () => {
    await pool?.query('TRUNCATE plants RESTART IDENTITY');
    return plants;
  });
});
