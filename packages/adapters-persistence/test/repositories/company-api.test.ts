import { randomUUID } from 'node:crypto';
import { describeCompanyApiContract } from '@servicedesk/core/contracts/company-api-contract';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import {
  MikroOrmCompanies,
  MikroOrmHelps,
  MikroOrmInvoices,
  MikroOrmPartners,
  MikroOrmPlans,
  MikroOrmPlatformActivity,
  MikroOrmTransaction,
  type Database,
} from '../../src/index.js';
import { describeOnEachDatabase } from '../support/databases.js';

function fixtureOn(db: Database) {
  const { orm } = db;
  // The company API only reads contacts and messages: write their rows in SQL.
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
    /**
     * A message belongs to a ticket of a contact on a connection: uses the given contact (else the
     * company's first, else a new one), and the company's connection and active ticket, made on first use.
     */
    async addMessage(m: { companyId: number; contactId?: number | null; createdAt: Date }) {
      const first = async (query: string, params: unknown[]) => {
        const [row] = await em().execute<Array<{ id: number }>>(query, params);
        return row ? Number(row.id) : undefined;
      };
      const { companyId: company, createdAt: at } = m;
      const contactId =
        m.contactId ??
        (await first('select id from contacts where company_id = ? order by id limit 1', [company])) ??
        (await first("insert into contacts (company_id, name, number, created_at, updated_at) values (?, 'Fixture', 'fixture', ?, ?) returning id", [
          company,
          at,
          at,
        ]))!;
      const connectionId =
        (await first('select id from connections where company_id = ? order by id limit 1', [company])) ??
        (await first(
          "insert into connections (company_id, name, kind, provider, created_at, updated_at) values (?, 'Fixture', 'chatapp', 'sandbox', ?, ?) returning id",
          [company, at, at],
        ))!;
      const ticketId =
        (await first("select id from tickets where contact_id = ? and connection_id = ? and status <> 'closed'", [contactId, connectionId])) ??
        (await first('insert into tickets (uuid, company_id, contact_id, connection_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?) returning id', [
          randomUUID(),
          company,
          contactId,
          connectionId,
          at,
          at,
        ]))!;
      await em().execute('insert into messages (id, company_id, ticket_id, contact_id, connection_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)', [
        randomUUID(),
        company,
        ticketId,
        contactId,
        connectionId,
        at,
        at,
      ]);
    },
  };
}

describeOnEachDatabase(fixtureOn, describeCompanyApiContract);
