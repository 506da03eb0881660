import { expect } from 'chai';
import pg from 'pg';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { BACKEND_MIGRATIONS, openDatabase } from '../../src/index.js';

/** Several processes starting at once on a new database: each runs migrate() on its own pool. */
describe('Migrations started by several processes at once (PostgreSQL)', function () {
  this.timeout(120_000);
  const base = integrationUrl('TEST_DATABASE_URL');
  const name = `sd_migrate_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let url: string;

  before(async function () {
    if (!base) return this.skip();
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const u = new URL(base);
    u.pathname = `/${name}`;
    url = u.toString();
  });

  after(async () => {
    if (!base) return;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  it('apply every migration once: one migrates, the others wait and find nothing to do', async () => {
    const dbs = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ url, poolMax: 3 })));
    try {
      const applied = await Promise.all(dbs.map((db) => db.migrate()));
      expect(applied.flat().sort()).to.deep.equal(BACKEND_MIGRATIONS.map((m) => m.name).sort());
      const rows = await dbs[0]!.orm.em.getConnection().execute<Array<{ name: string }>>('select name from mikro_orm_migrations order by id');
      expect(rows.map((r: { name: string }) => r.name)).to.deep.equal(BACKEND_MIGRATIONS.map((m) => m.name));
    } finally {
      for (const db of dbs) await db.close();
    }
  });
});
