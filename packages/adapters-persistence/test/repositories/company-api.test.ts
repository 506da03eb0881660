import { describeCompanyApiContract } from '@servicedesk/core/contracts/company-api-contract';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import {
  MikroOrmCompanies, MikroOrmHelps, MikroOrmInvoices, MikroOrmPartners, MikroOrmPlans, MikroOrmPlatformActivity, MikroOrmTransaction, type Database,
} from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';

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

describeOnEachDatabase(fixtureOn, describeCompanyApiContract);
