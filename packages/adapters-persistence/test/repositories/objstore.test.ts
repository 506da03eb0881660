import { RequestContext } from '@mikro-orm/core';
import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describeObjstoreContract, objstoreConfigFixture } from '@servicedesk/core/contracts/objstore-contract';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import { BACKEND_MIGRATIONS, BACKEND_SCHEMAS, MikroOrmCompanies, MikroOrmPlans, MikroOrmTransaction, type Database } from '../../src/index.js';
import { M0028Objstore } from '../../src/objstore/m0028-objstore.js';
import { objstoreRepositories } from '../../src/objstore/repository.js';
import { OBJSTORE_SCHEMAS } from '../../src/objstore/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the object stores'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...OBJSTORE_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0028-objstore', class: M0028Objstore }],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return { ...objstoreRepositories(orm), companies: new MikroOrmCompanies(orm), plans: new MikroOrmPlans(orm), tx: new MikroOrmTransaction(orm), db };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeObjstoreContract(name, make);

    describe(`Objstore repositories on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);

      it('refuses a second active config of a company, and drops configs and locations with their company', async () => {
        const plan = await f.plans.add(planFixture('P'));
        const company = await f.companies.add(companyFixture(plan.id, 'One'));
        const a = await f.objstoreConfigs.add(objstoreConfigFixture(company.id, 'A'));
        const b = await f.objstoreConfigs.add(objstoreConfigFixture(company.id, 'B'));
        await f.tx.run(() => f.objstoreConfigs.activate(company.id, a.id));
        const refused = await sql('update objstore_configs set active = true where id = ?', [b.id]).then(
          () => 'updated',
          (e: Error) => e.message,
        );
        expect(refused).to.include('objstore_configs_one_active_idx');
        const [row] = await sql('select secret_sealed from objstore_configs where id = ?', [a.id]);
        expect(row!.secret_sealed).to.equal('sealed-secret');
        await f.blobLocations.save({ key: `public/company-${company.id}/a.png`, companyId: company.id, configId: a.id, size: 1, createdAt: new Date() });
        await sql('delete from companies where id = ?', [company.id]);
        expect(await sql('select * from objstore_configs')).to.deep.equal([]);
        expect(await sql('select * from blob_locations')).to.deep.equal([]);
      });

      it('lets two activations at once take turns: one active config in the end, whichever came last', async function () {
        if (name !== 'PostgreSQL') return this.skip(); // PGlite has one connection: nothing runs at once
        const plan = await f.plans.add(planFixture('P'));
        const company = await f.companies.add(companyFixture(plan.id, 'One'));
        const configs = await Promise.all(['A', 'B', 'C', 'D'].map((n) => f.objstoreConfigs.add(objstoreConfigFixture(company.id, n))));
        await f.tx.run(() => f.objstoreConfigs.activate(company.id, configs[0]!.id));
        const activate = (id: number) => RequestContext.create(f.db.orm.em, () => f.tx.run(() => f.objstoreConfigs.activate(company.id, id)));
        const deactivated = await Promise.all(configs.slice(1).map((c) => activate(c.id)));
        // Each found exactly one active config before it (A, then the one before it in line): none was missed.
        expect(deactivated.map((ids) => ids.length)).to.deep.equal([1, 1, 1]);
        expect(new Set(deactivated.flat())).to.include(configs[0]!.id).and.to.have.property('size', 3);
        const active = await sql('select id from objstore_configs where company_id = ? and active', [company.id]);
        expect(active.map((r) => r.id)).to.deep.equal(
          configs
            .slice(1)
            .map((c) => c.id)
            .filter((id) => !deactivated.flat().includes(id)),
        );
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('objstore', OPTIONS, ['objstore_configs', 'blob_locations']);
