import { describeCompanyApiContract } from '@servicedesk/core/contracts/company-api-contract';
import { RequestContext } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import {
  MikroOrmCompanies, MikroOrmHelps, MikroOrmInvoices, MikroOrmPartners, MikroOrmPlans, MikroOrmPlatformActivity, MikroOrmTransaction, type Database,
} from '../../src/index.js';
import { openPgliteDatabase, openPostgresDatabase, truncate } from '../support/databases.js';

function fixtureOn(db: Database) {
  const { orm } = db;
  // The contacts and messages tables have no repository of their own yet: write rows in SQL.
  const em = () => orm.em.getContext() as unknown as SqlEntityManager;
  return {
    helps: new MikroOrmHelps(orm),
    partners: new MikroOrmPartners(orm),
    invoices: new MikroOrmInvoices(orm),
    activity: new MikroOrmPlatformActivity(orm),
    plans: new MikroOrmPlans(orm),
    companies: new MikroOrmCompanies(orm),
    tx: new MikroOrmTransaction(orm),
    rollsBack: true,
    async addContact(c: { companyId: number; name: string; number: string; email?: string | null; createdAt: Date }) {
      const [row] = await em().execute<Array<{ id: number }>>(
        'insert into contacts (company_id, name, number, email, created_at, updated_at) values (?, ?, ?, ?, ?, ?) returning id',
        [c.companyId, c.name, c.number, c.email ?? null, c.createdAt, c.createdAt],
      );
      return Number(row!.id);
    },
    async addMessage(m: { companyId: number; contactId?: number | null; createdAt: Date }) {
      await em().execute('insert into messages (company_id, contact_id, created_at) values (?, ?, ?)', [m.companyId, m.contactId ?? null, m.createdAt]);
    },
  };
}

function suite(name: string, open: () => Promise<Database>, enabled: () => boolean) {
  describe(name, function () {
    let db: Database | undefined;
    before(async function () {
      if (!enabled()) return this.skip();
      db = await open();
    });
    after(async () => { await db?.close(); });
    // Each test body runs inside a request context, like an HTTP request does.
    beforeEach(function () {
      const test = this.currentTest;
      if (!db || !test?.fn) return;
      const fn = test.fn as (this: Mocha.Context) => Promise<unknown>;
      test.fn = function (this: Mocha.Context) { return RequestContext.create(db!.orm.em, () => fn.call(this)); };
    });
    describeCompanyApiContract(name, async () => {
      await truncate(db!);
      return fixtureOn(db!);
    });
  });
}

suite('PGlite', () => openPgliteDatabase(), () => true);
suite('PostgreSQL', () => openPostgresDatabase(), () => Boolean(process.env.TEST_DATABASE_URL));
