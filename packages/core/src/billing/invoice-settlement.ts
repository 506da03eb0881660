import type { Invoice } from '../company-api/invoice.js';
import type { Invoices } from '../company-api/ports.js';
import type { Company } from '../tenancy/company.js';
import type { Companies, Plans } from '../tenancy/ports.js';
import { extendedDueDate } from './billing-period.js';
import type { Charge } from './charge.js';
import type { BillingJournal, BillingLedger, Suspensions } from './ports.js';

/**
 * Settles the invoice of a paid charge, once: the invoice becomes `paid`, the company's due date moves
 * one plan period from the later of its due date and the day of payment, and its suspension is lifted —
 * in the caller's transaction, under the company's and the invoice's row locks. Null when the invoice
 * was already paid (paid twice: told to the journal, nothing moves).
 */
export class InvoiceSettlement {
  constructor(
    private readonly deps: {
      ledger: BillingLedger;
      companies: Companies;
      plans: Plans;
      invoices: Invoices;
      suspensions: Suspensions;
      journal: BillingJournal;
    },
  ) {}

  async settle(charge: Pick<Charge, 'companyId' | 'invoiceId'>, paidAt: Date, now: Date): Promise<{ company: Company; invoice: Invoice } | null> {
    const { ledger, companies, plans, invoices, suspensions, journal } = this.deps;
    await ledger.lockCompany(charge.companyId);
    const invoice = await ledger.lockInvoice(charge.companyId, charge.invoiceId);
    const company = await companies.findById(charge.companyId);
    if (!invoice || !company) return null;
    if (invoice.status === 'paid') {
      journal.warn({ companyId: company.id, invoiceId: invoice.id }, 'a payment arrived for an invoice already paid: refund it by hand');
      return null;
    }
    invoice.status = 'paid';
    invoice.paidAt = paidAt;
    invoice.updatedAt = now;
    await invoices.update(invoice);
    const plan = await plans.findById(company.planId);
    company.dueDate = extendedDueDate(company.dueDate, paidAt, plan?.recurrence ?? 'MENSAL');
    company.updatedAt = now;
    await companies.update(company);
    await suspensions.lift(company.id);
    return { company, invoice };
  }
}
