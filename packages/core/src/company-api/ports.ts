import type { Page, PageRequest } from '../shared/paging.js';
import type { Help, NewHelp } from './help.js';
import type { Invoice, NewInvoice } from './invoice.js';
import type { NewPartner, Partner } from './partner.js';

export interface CatalogQuery {
  readonly search?: string;
  readonly page: PageRequest;
}

/** Platform-wide help articles, ordered by title. */
export interface Helps {
  findById(id: number): Promise<Help | null>;
  list(query: CatalogQuery): Promise<Page<Help>>;
  add(help: NewHelp): Promise<Help>;
  update(help: Help): Promise<void>;
  remove(id: number): Promise<void>;
}

/** Platform-wide partners (resellers), ordered by name. */
export interface Partners {
  findById(id: number): Promise<Partner | null>;
  list(query: CatalogQuery): Promise<Page<Partner>>;
  add(partner: NewPartner): Promise<Partner>;
  update(partner: Partner): Promise<void>;
  remove(id: number): Promise<void>;
}

export interface InvoiceQuery {
  /** Only this company's invoices; null only for platform-wide (super) reads. */
  readonly companyId: number | null;
  readonly search?: string;
  readonly page: PageRequest;
}

/**
 * Invoices of every company, newest first. Reads and deletes that take a companyId filter by it,
 * so another company's invoice answers null as if it did not exist.
 */
export interface Invoices {
  findById(companyId: number | null, id: number): Promise<Invoice | null>;
  list(query: InvoiceQuery): Promise<Page<Invoice>>;
  add(invoice: NewInvoice): Promise<Invoice>;
  update(invoice: Invoice): Promise<void>;
  remove(companyId: number | null, id: number): Promise<void>;
}

/** A contact as the integration API reports it. */
export interface PlatformContact {
  readonly id: number;
  readonly companyId: number;
  readonly name: string;
  readonly number: string;
  readonly email: string | null;
  readonly createdAt: Date;
}

/**
 * Read-only counts over the conversation data of every company (or one, when `companyId` is
 * given), for the integration API's dashboards and billing. Nothing here writes.
 */
export interface PlatformActivity {
  /** Contacts ordered by name, searchable by name, number or e-mail. */
  listContacts(query: { companyId?: number; search?: string; page: PageRequest }): Promise<Page<PlatformContact>>;
  countContacts(companyId?: number): Promise<number>;
  /** Messages whose createdAt lies in [from, to], both ends included. */
  countMessages(query: { companyId?: number; from: Date; to: Date }): Promise<number>;
}
