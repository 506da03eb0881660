import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describeFilesContract, fileOptionFixture } from '@servicedesk/core/contracts/files-contract';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import { BACKEND_MIGRATIONS, BACKEND_SCHEMAS, MikroOrmCompanies, MikroOrmPlans, type Database } from '../../src/index.js';
import { M0022FileLists } from '../../src/files/m0022-file-lists.js';
import { filesRepositories } from '../../src/files/repository.js';
import { FILE_LIST_SCHEMAS } from '../../src/files/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the file lists'. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...FILE_LIST_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0022-file-lists', class: M0022FileLists }],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return { ...filesRepositories(orm), companies: new MikroOrmCompanies(orm), plans: new MikroOrmPlans(orm), db };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeFilesContract(name, make);

    describe(`File lists repository on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);

      it("drops a company's lists and options with the company; an id past int4 is simply absent", async () => {
        const plan = await f.plans.add(planFixture('P'));
        const company = await f.companies.add(companyFixture(plan.id, 'One'));
        const list = await f.fileLists.add({ companyId: company.id, name: 'Catálogo', message: '', createdAt: new Date(), updatedAt: new Date() });
        await f.fileLists.addOption(fileOptionFixture(company.id, list.id, 'Preços', 0));
        expect(await f.fileLists.findById(company.id, 2_147_483_648)).to.equal(null);
        await sql('delete from companies where id = ?', [company.id]);
        expect((await sql('select count(*)::int as n from file_list_options'))[0]!.n).to.equal(0);
        expect((await sql('select count(*)::int as n from file_lists'))[0]!.n).to.equal(0);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('file lists', OPTIONS, ['file_lists', 'file_list_options']);
