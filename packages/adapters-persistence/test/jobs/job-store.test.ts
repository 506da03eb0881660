import { RequestContext } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describeJobStoreContract } from '@servicedesk/core/contracts/job-store-contract';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { MikroOrmJobStore, MikroOrmTransaction, type Database } from '../../src/index.js';
import { openPgliteDatabase, openPostgresDatabase, truncate } from '../support/databases.js';

/** Effects written through the job's transaction: a scratch table only this suite knows. */
const EFFECTS = 'job_contract_effects';

function fixtureOn(db: Database) {
  const { orm } = db;
  const sql = (query: string, params: unknown[] = []) => (orm.em as unknown as SqlEntityManager).execute<Array<{ value: string }>>(query, params);
  return {
    store: new MikroOrmJobStore(orm),
    transaction: new MikroOrmTransaction(orm),
    scope: <T>(work: () => Promise<T>) => RequestContext.create(orm.em, work),
    recordEffect: async (value: string) => {
      await sql(`insert into ${EFFECTS} (value) values (?)`, [value]);
    },
    effects: async () => (await sql(`select value from ${EFFECTS} order by seq`)).map((r) => r.value),
  };
}

const targets: Array<{ name: string; open: () => Promise<Database>; enabled: () => boolean; concurrentTransactions: boolean }> = [
  { name: 'PGlite', open: () => openPgliteDatabase(), enabled: () => true, concurrentTransactions: false },
  { name: 'PostgreSQL', open: () => openPostgresDatabase(), enabled: () => Boolean(integrationUrl('TEST_DATABASE_URL')), concurrentTransactions: true },
];

for (const target of targets) {
  describe(target.name, () => {
    let db: Database | undefined;
    before(async function () {
      if (!target.enabled()) return this.skip();
      db = await target.open();
      await db.orm.em.getConnection().execute(`create table if not exists ${EFFECTS} (seq bigint generated always as identity, value text not null)`);
    });
    // The PGlite instance is shared by the whole run: leave no table behind for other suites.
    after(async () => {
      if (!db) return;
      await db.orm.em.getConnection().execute(`drop table if exists ${EFFECTS}`);
      await db.close();
    });
    describeJobStoreContract(
      target.name,
      async () => {
        await truncate(db!);
        return fixtureOn(db!);
      },
      { concurrentTransactions: target.concurrentTransactions },
    );
  });
}
