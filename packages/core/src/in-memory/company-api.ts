import type { Help, NewHelp } from '../company-api/help.js';
import type { Invoice, NewInvoice } from '../company-api/invoice.js';
import type { NewPartner, Partner } from '../company-api/partner.js';
import type { CatalogQuery, Helps, InvoiceQuery, Invoices, Partners, PlatformActivity, PlatformContact } from '../company-api/ports.js';
import type { PageRequest } from '../shared/paging.js';
import { foldForSearch } from '../shared/text.js';
import { compareFolded, InMemoryTable, slice } from './table.js';

function matches(term: string | undefined, ...values: Array<string | null>): boolean {
  if (!term || !term.trim()) return true;
  const folded = foldForSearch(term);
  return values.some((v) => v !== null && foldForSearch(v).includes(folded));
}

export class InMemoryHelps implements Helps {
  readonly table = new InMemoryTable<Help>();

  async findById(id: number) {
    return this.table.get(id);
  }
  async list(q: CatalogQuery) {
    const rows = this.table.filter((h) => matches(q.search, h.title, h.description)).sort((a, b) => compareFolded(a.title, b.title) || a.id - b.id);
    return slice(rows, q.page);
  }
  async add(help: NewHelp) {
    return this.table.insert(help);
  }
  async update(help: Help) {
    this.table.replace(help);
  }
  async remove(id: number) {
    this.table.delete(id);
  }
}

export class InMemoryPartners implements Partners {
  readonly table = new InMemoryTable<Partner>();

  async findById(id: number) {
    return this.table.get(id);
  }
  async list(q: CatalogQuery) {
    const rows = this.table.filter((p) => matches(q.search, p.name, p.email, p.document)).sort((a, b) => compareFolded(a.name, b.name) || a.id - b.id);
    return slice(rows, q.page);
  }
  async add(partner: NewPartner) {
    return this.table.insert(partner);
  }
  async update(partner: Partner) {
    this.table.replace(partner);
  }
  async remove(id: number) {
    this.table.delete(id);
  }
}

export class InMemoryInvoices implements Invoices {
  readonly table = new InMemoryTable<Invoice>();

  async findById(companyId: number | null, id: number) {
    const invoice = this.table.get(id);
    return invoice && (companyId === null || invoice.companyId === companyId) ? invoice : null;
  }
  async list(q: InvoiceQuery) {
    const rows = this.table.filter((i) => (q.companyId === null || i.companyId === q.companyId) && matches(q.search, i.detail)).sort((a, b) => b.id - a.id);
    return slice(rows, q.page);
  }
  async add(invoice: NewInvoice) {
    return this.table.insert(invoice);
  }
  async update(invoice: Invoice) {
    this.table.replace(invoice);
  }
  async remove(companyId: number | null, id: number) {
    if (await this.findById(companyId, id)) this.table.delete(id);
  }
  /** ON DELETE CASCADE: hook into `InMemoryCompanies.onRemove`. */
  dropCompany(companyId: number) {
    for (const i of this.table.filter((row) => row.companyId === companyId)) this.table.delete(i.id);
  }
}

interface StoredMessage {
  id: number;
  companyId: number;
  contactId: number | null;
  createdAt: Date;
}

/**
 * Contacts and messages as the integration API counts them. The tables belong to the
 * conversation features; `addContact`/`addMessage` let tests and embedders fill them.
 */
export class InMemoryPlatformActivity implements PlatformActivity {
  readonly contacts = new InMemoryTable<PlatformContact & { id: number }>();
  readonly messages = new InMemoryTable<StoredMessage>();

  addContact(c: Omit<PlatformContact, 'id' | 'email'> & { email?: string | null }): PlatformContact {
    // unique (company_id, number), as in the database
    if (this.contacts.find((x) => x.companyId === c.companyId && x.number === c.number)) throw new Error('duplicate contact number');
    return this.contacts.insert({ ...c, email: c.email ?? null });
  }
  addMessage(m: { companyId: number; contactId?: number | null; createdAt: Date }): void {
    this.messages.insert({ companyId: m.companyId, contactId: m.contactId ?? null, createdAt: m.createdAt });
  }
  /** ON DELETE CASCADE: hook into `InMemoryCompanies.onRemove`. */
  dropCompany(companyId: number) {
    for (const c of this.contacts.filter((row) => row.companyId === companyId)) this.contacts.delete(c.id);
    for (const m of this.messages.filter((row) => row.companyId === companyId)) this.messages.delete(m.id);
  }

  async listContacts(q: { companyId?: number; search?: string; page: PageRequest }) {
    const rows = this.contacts
      .filter((c) => (q.companyId === undefined || c.companyId === q.companyId) && matches(q.search, c.name, c.number, c.email))
      .sort((a, b) => compareFolded(a.name, b.name) || a.id - b.id);
    return slice(rows, q.page);
  }
  async countContacts(companyId?: number) {
    return this.contacts.filter((c) => companyId === undefined || c.companyId === companyId).length;
  }
  async countMessages(q: { companyId?: number; from: Date; to: Date }) {
    const from = q.from.getTime();
    const to = q.to.getTime();
    return this.messages.filter(
      (m) => (q.companyId === undefined || m.companyId === q.companyId) && m.createdAt.getTime() >= from && m.createdAt.getTime() <= to,
    ).length;
  }
}
