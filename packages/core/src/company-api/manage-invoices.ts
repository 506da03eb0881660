import { assertSuper, isSuper, type Actor } from '../shared/actor.js';
import { NotFoundError, ValidationError } from '../shared/errors.js';
import { hasMore, pageFromNumber } from '../shared/paging.js';
import type { Clock } from '../shared/ports.js';
import type { Companies } from '../tenancy/ports.js';
import { INVOICE_STATUSES, toInvoiceView, type Invoice, type InvoiceStatus, type InvoiceView } from './invoice.js';
import type { Invoices } from './ports.js';
import { cleanDay, cleanDecimal, cleanText } from './values.js';

export interface InvoiceFields {
  readonly detail?: string;
  readonly status?: InvoiceStatus;
  readonly value?: string | number;
  readonly dueDate?: string;
}

function applyFields(invoice: Invoice, fields: InvoiceFields, now: Date): void {
  if (fields.detail !== undefined) invoice.detail = cleanText(fields.detail, 'ERR_INVALID_INVOICE_DETAIL', 1, 500);
  if (fields.value !== undefined) invoice.value = cleanDecimal(fields.value, 'ERR_INVALID_INVOICE_VALUE');
  if (fields.dueDate !== undefined) invoice.dueDate = cleanDay(fields.dueDate, 'ERR_INVALID_INVOICE_DUE_DATE');
  if (fields.status !== undefined) {
    if (!INVOICE_STATUSES.includes(fields.status)) throw new ValidationError('ERR_INVALID_INVOICE_STATUS');
    // paidAt records when the invoice became paid; it is kept while it stays paid and cleared otherwise.
    if (fields.status === 'paid' && invoice.status !== 'paid') invoice.paidAt = now;
    if (fields.status !== 'paid') invoice.paidAt = null;
    invoice.status = fields.status;
  }
}

/** Super users reach any company's invoice; everyone else only their own company's. 404 otherwise. */
async function visibleInvoice(invoices: Invoices, actor: Actor, id: number): Promise<Invoice> {
  const invoice = await invoices.findById(isSuper(actor) ? null : actor.companyId, id);
  if (!invoice) throw new NotFoundError('ERR_NO_INVOICE_FOUND');
  return invoice;
}

/** A page of invoices: super users see every company's (or one company's), others their own company's. */
export class ListInvoices {
  constructor(private readonly deps: { invoices: Invoices }) {}

  async execute(input: { actor: Actor; companyId?: number; searchParam?: string; pageNumber?: number }) {
    const companyId = isSuper(input.actor) ? (input.companyId ?? null) : input.actor.companyId;
    const page = pageFromNumber(input.pageNumber);
    const result = await this.deps.invoices.list({ companyId, search: input.searchParam, page });
    return { invoices: result.rows.map(toInvoiceView), count: result.count, hasMore: hasMore(page, result.count) };
  }
}

export class ShowInvoice {
  constructor(private readonly deps: { invoices: Invoices }) {}

  async execute(input: { actor: Actor; invoiceId: number }): Promise<InvoiceView> {
    return toInvoiceView(await visibleInvoice(this.deps.invoices, input.actor, input.invoiceId));
  }
}

/** Super users bill a company; the company must exist. */
export class CreateInvoice {
  constructor(private readonly deps: { invoices: Invoices; companies: Companies; clock: Clock }) {}

  async execute(input: InvoiceFields & { actor: Actor; companyId: number; detail: string; value: string | number; dueDate: string }) {
    assertSuper(input.actor);
    const now = this.deps.clock.now();
    const draft: Invoice = {
      id: 0,
      companyId: input.companyId,
      detail: '',
      status: 'open',
      value: '0.00',
      dueDate: '',
      paidAt: null,
      createdAt: now,
      updatedAt: now,
    };
    applyFields(draft, input, now);
    if (!(await this.deps.companies.findById(input.companyId))) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
    const { id: _unused, ...fields } = draft;
    return toInvoiceView(await this.deps.invoices.add(fields));
  }
}

/** Super users change an invoice's status, value, due date or detail; it stays with its company. */
export class UpdateInvoice {
  constructor(private readonly deps: { invoices: Invoices; clock: Clock }) {}

  async execute(input: InvoiceFields & { actor: Actor; invoiceId: number }): Promise<InvoiceView> {
    assertSuper(input.actor);
    const invoice = await visibleInvoice(this.deps.invoices, input.actor, input.invoiceId);
    const now = this.deps.clock.now();
    applyFields(invoice, input, now);
    invoice.updatedAt = now;
    await this.deps.invoices.update(invoice);
    return toInvoiceView(invoice);
  }
}

export class DeleteInvoice {
  constructor(private readonly deps: { invoices: Invoices }) {}

  async execute(input: { actor: Actor; invoiceId: number }): Promise<void> {
    assertSuper(input.actor);
    const invoice = await visibleInvoice(this.deps.invoices, input.actor, input.invoiceId);
    await this.deps.invoices.remove(invoice.companyId, invoice.id);
  }
}
