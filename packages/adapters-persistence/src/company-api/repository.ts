import {
  type CatalogQuery,
  type Help,
  type Helps,
  type Invoice,
  type InvoiceQuery,
  type Invoices,
  type NewHelp,
  type NewInvoice,
  type NewPartner,
  type Page,
  type PageRequest,
  type Partner,
  type Partners,
  type PlatformActivity,
  type PlatformContact,
  foldForSearch,
} from '@servicedesk/core';
import { HelpSchema, InvoiceSchema, PartnerSchema } from './schema.js';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldedOrder, foldSql, searchWhere } from '../shared/search.js';

const READ = { disableIdentityMap: true } as const;

export class MikroOrmHelps extends MikroOrmRepository implements Helps {
  async findById(id: number) {
    return this.em.findOne(HelpSchema, { id }, READ);
  }
  async list(q: CatalogQuery): Promise<Page<Help>> {
    const [rows, count] = await this.em.findAndCount(HelpSchema, searchWhere(['title', 'description'], q.search), {
      ...READ,
      orderBy: [foldedOrder('title'), { id: 'asc' }],
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }
  async add(help: NewHelp): Promise<Help> {
    const id = (await this.em.insert(HelpSchema, help as Help)) as number;
    return { ...help, id };
  }
  async update(help: Help) {
    const { id, ...fields } = help;
    await this.em.nativeUpdate(HelpSchema, { id }, fields);
  }
  async remove(id: number) {
    await this.em.nativeDelete(HelpSchema, { id });
  }
}

export class MikroOrmPartners extends MikroOrmRepository implements Partners {
  async findById(id: number) {
    return this.em.findOne(PartnerSchema, { id }, READ);
  }
  async list(q: CatalogQuery): Promise<Page<Partner>> {
    const [rows, count] = await this.em.findAndCount(PartnerSchema, searchWhere(['name', 'email', 'document'], q.search), {
      ...READ,
      orderBy: [foldedOrder('name'), { id: 'asc' }],
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }
  async add(partner: NewPartner): Promise<Partner> {
    const id = (await this.em.insert(PartnerSchema, partner as Partner)) as number;
    return { ...partner, id };
  }
  async update(partner: Partner) {
    const { id, ...fields } = partner;
    await this.em.nativeUpdate(PartnerSchema, { id }, fields);
  }
  async remove(id: number) {
    await this.em.nativeDelete(PartnerSchema, { id });
  }
}

export class MikroOrmInvoices extends MikroOrmRepository implements Invoices {
  async findById(companyId: number | null, id: number) {
    return this.em.findOne(InvoiceSchema, companyId === null ? { id } : { id, companyId }, READ);
  }
  async list(q: InvoiceQuery): Promise<Page<Invoice>> {
    const where = { ...(q.companyId === null ? {} : { companyId: q.companyId }), ...searchWhere(['detail'], q.search) };
    const [rows, count] = await this.em.findAndCount(InvoiceSchema, where, {
      ...READ,
      orderBy: { id: 'desc' },
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }
  async add(invoice: NewInvoice): Promise<Invoice> {
    const id = (await this.em.insert(InvoiceSchema, invoice as Invoice)) as number;
    return { ...invoice, id };
  }
  async update(invoice: Invoice) {
    const { id, companyId, ...fields } = invoice;
    await this.em.nativeUpdate(InvoiceSchema, { id, companyId }, fields);
  }
  async remove(companyId: number | null, id: number) {
    await this.em.nativeDelete(InvoiceSchema, companyId === null ? { id } : { id, companyId });
  }
}

interface ContactRow {
  id: number;
  company_id: number;
  name: string;
  number: string;
  email: string | null;
  created_at: Date | string;
}

/**
 * Counts over the conversation tables in plain SQL: those tables belong to other features'
 * schemas, and this adapter only reads them. Runs on the unit of work's EntityManager.
 */
export class MikroOrmPlatformActivity extends MikroOrmRepository implements PlatformActivity {
  private contactFilter(companyId?: number, search?: string): { sql: string; params: unknown[] } {
    const clauses: string[] = [];
    const params: unknown[] = [];
    if (companyId !== undefined) {
      clauses.push('company_id = ?');
      params.push(companyId);
    }
    if (search && search.trim()) {
      const term = likeTerm(foldForSearch(search));
      clauses.push(`(${['name', 'number', 'email'].map((c) => `${foldSql(c)} like ?`).join(' or ')})`);
      params.push(term, term, term);
    }
    return { sql: clauses.length ? `where ${clauses.join(' and ')}` : '', params };
  }

  async listContacts(q: { companyId?: number; search?: string; page: PageRequest }): Promise<Page<PlatformContact>> {
    const f = this.contactFilter(q.companyId, q.search);
    const rows = await this.em.execute<ContactRow[]>(
      `select id, company_id, name, number, email, created_at from contacts ${f.sql} order by ${foldSql('name')}, id limit ? offset ?`,
      [...f.params, q.page.limit, q.page.offset],
    );
    const [total] = await this.em.execute<Array<{ count: number }>>(`select count(*)::int as count from contacts ${f.sql}`, f.params);
    return {
      rows: rows.map((r) => ({
        id: Number(r.id),
        companyId: Number(r.company_id),
        name: r.name,
        number: r.number,
        email: r.email,
        createdAt: new Date(r.created_at),
      })),
      count: Number(total?.count ?? 0),
    };
  }

  async countContacts(companyId?: number): Promise<number> {
    const f = this.contactFilter(companyId);
    const [row] = await this.em.execute<Array<{ count: number }>>(`select count(*)::int as count from contacts ${f.sql}`, f.params);
    return Number(row?.count ?? 0);
  }

  async countMessages(q: { companyId?: number; from: Date; to: Date }): Promise<number> {
    const byCompany = q.companyId === undefined ? '' : 'company_id = ? and ';
    const params = [...(q.companyId === undefined ? [] : [q.companyId]), q.from, q.to];
    const [row] = await this.em.execute<Array<{ count: number }>>(
      `select count(*)::int as count from messages where ${byCompany}created_at >= ? and created_at <= ?`,
      params,
    );
    return Number(row?.count ?? 0);
  }
}
