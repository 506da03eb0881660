import { PGlite } from '@electric-sql/pglite';
import { RequestContext } from '@mikro-orm/core';
import { expect } from 'chai';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { connectionFixture } from '@servicedesk/core/contracts/messaging-contract';
import { twoCompanies } from '@servicedesk/core/contracts/repositories-contract';
import {
  BACKEND_MIGRATIONS,
  MikroOrmCompanies,
  MikroOrmConnections,
  MikroOrmPlans,
  openDatabase,
  type Database,
  type DatabaseOptions,
} from '../../src/index.js';
import { scratchDatabase } from '../support/databases.js';

const BEFORE = BACKEND_MIGRATIONS.filter((m) => m.name !== 'm0036-unique-bizchat-numbers');
const number = (externalId: string) => ({ kind: 'bizchat', provider: 'cloudapi', externalId, secrets: { wabaId: 'W', accessToken: 't' } }) as const;

/**
 * m0036 makes phone-number ids unique among bizchat connections. A database whose connections
 * already share a number (registered before the check existed) is not migrated: the migration stops
 * naming each shared number with the companies and connections holding it, and runs once they are gone.
 */
function refusesSharedNumbers(name: string, target: () => Promise<{ options: Partial<DatabaseOptions>; dispose(): Promise<void> } | null>) {
  describe(`m0036 (unique bizchat phone-number ids) on ${name}`, function () {
    this.timeout(120_000);
    let t: { options: Partial<DatabaseOptions>; dispose(): Promise<void> } | null = null;
    before(async function () {
      t = await target();
      if (!t) this.skip();
    });
    after(async () => {
      await t?.dispose();
    });

    async function opened<T>(migrations: typeof BACKEND_MIGRATIONS, work: (db: Database) => Promise<T>): Promise<T> {
      const db = await openDatabase({ ...t!.options, migrations });
      try {
        return await RequestContext.create(db.orm.em, () => work(db));
      } finally {
        await db.close();
      }
    }

    it('stops while two connections share a number, listing company, connections and number; then applies and holds the rule', async () => {
      const ids = await opened(BEFORE, async (db) => {
        await db.migrate();
        const r = { plans: new MikroOrmPlans(db.orm), companies: new MikroOrmCompanies(db.orm), connections: new MikroOrmConnections(db.orm) };
        const [c1, c2] = await twoCompanies(r);
        const add = async (companyId: number, externalId: string) => (await r.connections.add(connectionFixture(companyId, 'N', number(externalId)))).id;
        return {
          c1,
          c2,
          owner: await add(c1, '1065'),
          squatter: await add(c2, '1065'),
          again: await add(c1, '1065'),
          alone: await add(c2, '2065'),
          other: await add(c1, '3065'),
          twin: await add(c2, '3065'),
        };
      });
      const refusal = await opened(BACKEND_MIGRATIONS, (db) =>
        db.migrate().then(
          () => null,
          (e: Error) => e.message,
        ),
      );
      expect(refusal).to.include(
        'm0036: bizchat connections share a phone-number id, remove all but one of each: ' +
          `1065 (company ${ids.c1} connection ${ids.owner}, company ${ids.c2} connection ${ids.squatter}, company ${ids.c1} connection ${ids.again}); ` +
          `3065 (company ${ids.c1} connection ${ids.other}, company ${ids.c2} connection ${ids.twin})`,
      );
      expect(refusal).to.not.include('2065');

      await opened(BACKEND_MIGRATIONS, async (db) => {
        const sql = db.orm.em.getConnection();
        expect(
          (await sql.execute(`select name from mikro_orm_migrations where name = 'm0036-unique-bizchat-numbers'`)).length,
          'not recorded as applied',
        ).to.equal(0);
        await sql.execute('delete from connections where id in (?, ?, ?)', [ids.squatter, ids.again, ids.twin]);
        expect(await db.migrate()).to.deep.equal(['m0036-unique-bizchat-numbers']);
        const connections = new MikroOrmConnections(db.orm);
        const conflict = await connections.add(connectionFixture(ids.c2, 'N', number('1065'))).then(
          () => null,
          (e: { code?: string }) => e.code,
        );
        expect(conflict).to.equal('ERR_BIZCHAT_NUMBER_IN_USE');
        expect((await connections.findByExternalId('1065', 'bizchat'))?.id).to.equal(ids.owner);
      });
    });
  });
}

refusesSharedNumbers('PGlite', async () => {
  // An engine of its own: the suites' shared one is migrated to the end already.
  const pglite = await PGlite.create();
  return { options: { pglite }, dispose: () => pglite.close() };
});
refusesSharedNumbers('PostgreSQL', async () => {
  if (!integrationUrl('TEST_DATABASE_URL')) return null;
  const scratch = await scratchDatabase();
  return { options: { url: scratch.url, poolMax: 2 }, dispose: () => scratch.drop() };
});
