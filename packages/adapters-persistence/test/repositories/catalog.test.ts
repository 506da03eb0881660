import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { categoryFixture, describeCatalogContract, productFixture } from '@servicedesk/core/contracts/catalog-contract';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import { BACKEND_MIGRATIONS, BACKEND_SCHEMAS, MikroOrmCompanies, MikroOrmPlans, MikroOrmTransaction, type Database } from '../../src/index.js';
import { M0026Catalog } from '../../src/catalog/m0026-catalog.js';
import { catalogRepositories } from '../../src/catalog/repository.js';
import { CATALOG_SCHEMAS } from '../../src/catalog/schema.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The backend's tables and the catalog's. */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...CATALOG_SCHEMAS],
  migrations: [...BACKEND_MIGRATIONS, { name: 'm0026-catalog', class: M0026Catalog }],
};

function fixtureOn(db: Database) {
  const { orm } = db;
  return { ...catalogRepositories(orm), companies: new MikroOrmCompanies(orm), plans: new MikroOrmPlans(orm), tx: new MikroOrmTransaction(orm), db };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeCatalogContract(name, make);

    describe(`Catalog repositories on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);

      it("drops a company's catalog with the company, and never lets stock or a price go below zero", async () => {
        const plan = await f.plans.add(planFixture('P'));
        const company = await f.companies.add(companyFixture(plan.id, 'One'));
        const shelf = await f.categories.add(categoryFixture(company.id, 'Cafés'));
        const product = await f.products.add(productFixture(company.id, 'Espresso', { categoryId: shelf.id, stock: 1, trackStock: true }));
        await f.productImports.add({
          companyId: company.id,
          userId: null,
          status: 'queued',
          mode: 'create',
          fileName: 'x.csv',
          total: 1,
          processed: 0,
          created: 0,
          updated: 0,
          skipped: 0,
          failed: 0,
          errors: [],
          error: null,
          createdAt: new Date(),
          startedAt: null,
          finishedAt: null,
        });
        const refused = await sql('update products set stock = -1 where id = ?', [product.id]).then(
          () => 'written',
          () => 'refused',
        );
        expect(refused).to.equal('refused');
        await sql('delete from companies where id = ?', [company.id]);
        for (const table of ['products', 'categories', 'product_imports'])
          expect((await sql(`select count(*)::int as n from ${table}`))[0]!.n, table).to.equal(0);
      });

      it('imports 5,000 rows in ten statements of 500', async function () {
        this.timeout(60_000);
        const plan = await f.plans.add(planFixture('P'));
        const company = await f.companies.add(companyFixture(plan.id, 'One'));
        const rows = Array.from({ length: 500 }, (_, i) => ({
          name: `Produto ${i}`,
          description: '',
          sku: `SKU-${i}`,
          price: 100 + i,
          currency: 'BRL',
          stock: 0,
          trackStock: false,
          active: true,
          categoryId: null,
        }));
        const started = Date.now();
        for (let batch = 0; batch < 10; batch++) {
          const outcome = await f.products.importBatch(
            company.id,
            rows.map((r) => ({ ...r, sku: `${r.sku}-${batch}` })),
            { mode: 'create', columns: ['sku'] },
            new Date(),
          );
          expect(outcome.created).to.equal(500);
        }
        expect(Date.now() - started).to.be.below(10_000);
        expect((await f.products.list({ companyId: company.id, page: { offset: 0, limit: 1 } })).count).to.equal(5000);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('catalog', OPTIONS, ['categories', 'products', 'product_images', 'product_imports']);
