import { expect } from 'chai';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import { describeContactListsContract, itemFixture } from '@servicedesk/core/contracts/contact-lists-contract';
import { companyFixture, planFixture } from '@servicedesk/core/contracts/repositories-contract';
import {
  BACKEND_MIGRATIONS,
  BACKEND_SCHEMAS,
  CAMPAIGN_SCHEMAS,
  M0015Campaigns,
  MikroOrmCompanies,
  MikroOrmPlans,
  MikroOrmTransaction,
  type Database,
} from '../../src/index.js';
import { M0014ContactLists } from '../../src/contact-lists/m0014-contact-lists.js';
import { M0016ContactListJobs } from '../../src/contact-lists/m0016-contact-list-jobs.js';
import { contactListsRepositories } from '../../src/contact-lists/repository.js';
import { CONTACT_LIST_SCHEMAS } from '../../src/contact-lists/schema.js';
import { MikroOrmContactListUsage } from '../../src/contact-lists/usage.js';
import { describeOnEachDatabase } from '../support/databases.js';
import { describeFeatureDrift } from '../support/feature-drift.js';

/** The contact lists' tables, and the campaigns' (what `MikroOrmContactListUsage` reads). */
const OPTIONS = {
  entities: [...BACKEND_SCHEMAS, ...CONTACT_LIST_SCHEMAS, ...CAMPAIGN_SCHEMAS],
  migrations: [
    ...BACKEND_MIGRATIONS,
    { name: 'm0014-contact-lists', class: M0014ContactLists },
    { name: 'm0015-campaigns', class: M0015Campaigns },
    { name: 'm0016-contact-list-jobs', class: M0016ContactListJobs },
  ],
};
const TABLES = ['contact_lists', 'contact_list_items', 'contact_list_imports'];

function fixtureOn(db: Database) {
  const { orm } = db;
  return {
    ...contactListsRepositories(orm),
    usage: new MikroOrmContactListUsage(orm),
    companies: new MikroOrmCompanies(orm),
    plans: new MikroOrmPlans(orm),
    tx: new MikroOrmTransaction(orm),
    db,
  };
}

describeOnEachDatabase(
  fixtureOn,
  (name, make) => {
    describeContactListsContract(name, make);

    describe(`Contact-list repositories on ${name}: what only SQL shows`, () => {
      let f: ReturnType<typeof fixtureOn>;
      beforeEach(async () => {
        f = await make();
      });
      const sql = (query: string, params: unknown[] = []) =>
        (f.db.orm.em.getContext() as unknown as SqlEntityManager).execute<Array<Record<string, any>>>(query, params);

      it('imports 500 rows in one statement, and a second import of them merges every one', async () => {
        const plan = await f.plans.add(planFixture('P'));
        const company = (await f.companies.add(companyFixture(plan.id, 'One'))).id;
        const list = await f.contactLists.add({ companyId: company, name: 'Big', createdAt: new Date(), updatedAt: new Date() });
        const rows = Array.from({ length: 500 }, (_, i) => {
          const number = `55119${70_000_000 + i}`;
          return { name: `Row ${i}`, number, canonicalNumber: number, email: '', variables: { i: String(i) } };
        });
        const conn = f.db.orm.em.getConnection();
        const execute = conn.execute.bind(conn);
        let statements = 0;
        conn.execute = ((...args: Parameters<typeof execute>) => {
          statements++;
          return execute(...args);
        }) as typeof conn.execute;
        try {
          expect(await f.contactListItems.importBatch(company, list.id, rows, new Date())).to.deep.equal({ created: 500, merged: 0 });
        } finally {
          conn.execute = execute;
        }
        expect(statements).to.equal(1);
        expect(await f.contactListItems.importBatch(company, list.id, rows, new Date())).to.deep.equal({ created: 0, merged: 500 });
        expect((await f.contactLists.counts(company, [list.id])).get(list.id)!.contactsCount).to.equal(500);
      });

      it('names the campaigns that will still read a list: not materialised, and inactive, scheduled or starting', async () => {
        const plan = await f.plans.add(planFixture('P'));
        const company = (await f.companies.add(companyFixture(plan.id, 'One'))).id;
        const other = (await f.companies.add(companyFixture(plan.id, 'Two'))).id;
        const list = await f.contactLists.add({ companyId: company, name: 'Alvo', createdAt: new Date(), updatedAt: new Date() });
        await f.contactListItems.add(itemFixture(company, list.id, '5511988887777'));
        const campaign = async (companyId: number, name: string, status: string, materialized: boolean) =>
          (
            await sql(
              `insert into campaigns (company_id, name, status, contact_list_id, materialized_at, created_at, updated_at) values (?, ?, ?, ?, ?, now(), now()) returning id`,
              [companyId, name, status, list.id, materialized ? new Date() : null],
            )
          )[0]!.id;
        const draft = await campaign(company, 'Rascunho', 'INATIVA', false);
        const scheduled = await campaign(company, 'Agendada', 'PROGRAMADA', false);
        const starting = await campaign(company, 'Começando', 'EM_ANDAMENTO', false);
        await campaign(company, 'Enviando', 'EM_ANDAMENTO', true);
        await campaign(company, 'Pausada', 'PAUSADA', false);
        await campaign(company, 'Cancelada', 'CANCELADA', false);
        await campaign(company, 'Finalizada', 'FINALIZADA', true);
        await campaign(other, 'Alheia', 'PROGRAMADA', false);
        expect(await f.usage.campaignsReading(company, list.id)).to.deep.equal([
          { id: Number(draft), name: 'Rascunho' },
          { id: Number(scheduled), name: 'Agendada' },
          { id: Number(starting), name: 'Começando' },
        ]);
        expect(await f.usage.campaignsReading(other, list.id)).to.deep.equal([
          { id: (await sql('select id from campaigns where name = ?', ['Alheia']))[0]!.id, name: 'Alheia' },
        ]);
        expect(await f.usage.campaignsReading(company, list.id + 1)).to.deep.equal([]);
        // Removing the list leaves the campaigns without it (their reference is set null).
        await f.contactLists.remove(company, list.id);
        const [left] = await sql('select count(*) as n from campaigns where contact_list_id is not null');
        expect(Number(left!.n)).to.equal(0);
      });
    });
  },
  OPTIONS,
);

describeFeatureDrift('contact-list', OPTIONS, TABLES);
