import type { Invoices } from '../company-api/ports.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { Company } from '../tenancy/company.js';
import type { Plan } from '../tenancy/plan.js';
import type { Companies, Plans } from '../tenancy/ports.js';
import { dayOf, daysBetween, extendedDueDate } from './billing-period.js';
import type { BillingLedger, BillingSettings, Suspensions } from './ports.js';

/** The companies a run touched, by what it did to them. */
export interface BillingCycleReport {
  readonly invoiced: number[];
  /** Their cycle's invoice had been paid by other means (a super user's edit): their due date moved. */
  readonly settled: number[];
  readonly suspended: number[];
  readonly restored: number[];
}

/**
 * The daily billing run (`billing.cycle`), idempotent: for every active company with a due date on a
 * plan that costs something, the invoice of its cycle (the one falling due on its due date) is issued
 * `invoiceLeadDays` before, once — a cycle that has an invoice, whatever its status, gets none again;
 * a company overdue for more than `graceDays` is suspended, and one no longer overdue (it paid, or its
 * due date was moved) is restored. Each company in its own transaction, under its row lock.
 */
export class RunBillingCycle {
  constructor(
    private readonly deps: {
      companies: Companies;
      plans: Plans;
      invoices: Invoices;
      ledger: BillingLedger;
      suspensions: Suspensions;
      tx: Transaction;
      clock: Clock;
      settings: BillingSettings;
    },
  ) {}

  async execute(): Promise<BillingCycleReport> {
    const report: BillingCycleReport = { invoiced: [], settled: [], suspended: [], restored: [] };
    for (const listed of await this.deps.companies.listAll()) {
      if (!listed.dueDate || !listed.status) continue;
      await this.deps.tx.run(() => this.runFor(listed.id, report));
    }
    return report;
  }

  private async runFor(companyId: number, report: BillingCycleReport): Promise<void> {
    const { companies, plans, ledger, suspensions, clock, settings } = this.deps;
    await ledger.lockCompany(companyId);
    const company = await companies.findById(companyId);
    if (!company?.dueDate) return;
    const plan = await plans.findById(company.planId);
    const now = clock.now();
    const today = dayOf(now);
    const billable = plan !== null && Number(plan.amount) > 0;
    if (billable) {
      if (await this.settledElsewhere(company, plan, now)) report.settled.push(company.id);
      if (daysBetween(today, company.dueDate!) <= settings.invoiceLeadDays && (await this.issueInvoice(company, plan, now))) report.invoiced.push(company.id);
    }
    const overdue = billable && daysBetween(company.dueDate!, today) > settings.graceDays;
    const suspended = await suspensions.find(company.id);
    if (overdue && !suspended) {
      await suspensions.suspend({ companyId: company.id, suspendedAt: now, dueDate: company.dueDate! });
      report.suspended.push(company.id);
    } else if (!overdue && suspended) {
      await suspensions.lift(company.id);
      report.restored.push(company.id);
    }
  }

  /** The cycle's invoice is paid but the due date did not move (settled by hand, not through the gateway): it moves now. */
  private async settledElsewhere(company: Company, plan: Plan, now: Date): Promise<boolean> {
    const invoice = await this.deps.ledger.invoiceOfCycle(company.id, company.dueDate!);
    if (invoice?.status !== 'paid') return false;
    company.dueDate = extendedDueDate(company.dueDate, invoice.paidAt ?? now, plan.recurrence);
    company.updatedAt = now;
    await this.deps.companies.update(company);
    return true;
  }

  private async issueInvoice(company: Company, plan: Plan, now: Date): Promise<boolean> {
    if (await this.deps.ledger.invoiceOfCycle(company.id, company.dueDate!)) return false;
    await this.deps.invoices.add({
      companyId: company.id,
      detail: `${plan.name} (${company.dueDate})`,
      status: 'open',
      value: Number(plan.amount).toFixed(2),
      dueDate: company.dueDate!,
      paidAt: null,
      createdAt: now,
      updatedAt: now,
    });
    return true;
  }
}
