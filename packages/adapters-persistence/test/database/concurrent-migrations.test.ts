import { expect } from 'chai';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { BACKEND_MIGRATIONS, openDatabase } from '../../src/index.js';
import { scratchDatabase } from '../support/databases.js';

/** Several processes starting at once on a new database: each runs migrate() on its own pool. */
describe('Migrations started by several processes at once (PostgreSQL)', function () {
  this.timeout(120_000);
  let scratch: Awaited<ReturnType<typeof scratchDatabase>> | undefined;

  before(async function () {
    if (!integrationUrl('TEST_DATABASE_URL')) return this.skip();
    scratch = await scratchDatabase();
  });
  after(async () => {
    await scratch?.drop();
  });

  it('apply every migration once: one migrates, the others wait and find nothing to do', async () => {
    const dbs = await Promise.all(Array.from({ length: 4 }, () => openDatabase({ url: scratch!.url, poolMax: 3 })));
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
