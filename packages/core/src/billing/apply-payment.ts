import type { Invoices } from '../company-api/ports.js';
import { toInvoiceView, type Invoice } from '../company-api/invoice.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { toCompanyView, type Company } from '../tenancy/company.js';
import type { Companies, Plans } from '../tenancy/ports.js';
import type { PaymentEvent } from './billing-events.js';
import { extendedDueDate } from './billing-period.js';
import type { Charge, ChargeStatus } from './charge.js';
import type { BillingJournal, BillingLedger, Charges, GatewayCharge, PaymentGateway, Suspensions } from './ports.js';
import type { ApplyPaymentPayload } from './receive-payment-notice.js';

/** The moves a charge may make: a pending one ends any way; a paid one can only be refunded. */
function mayMove(from: ChargeStatus, to: ChargeStatus): boolean {
  if (from === to) return false;
  return from === 'pending' || (from === 'paid' && to === 'refunded');
}

/**
 * Settles the invoice of a paid charge, once: the invoice becomes `paid`, the company's due date moves
 * one plan period from the later of its due date and the day of payment, and its suspension is lifted —
 * in the caller's transaction, under the company's and the invoice's row locks. False when the invoice
 * was already paid (paid twice: told to the journal, nothing moves).
 */
export async function settleInvoice(
  deps: { ledger: BillingLedger; companies: Companies; plans: Plans; invoices: Invoices; suspensions: Suspensions; journal: BillingJournal },
  charge: Pick<Charge, 'companyId' | 'invoiceId'>,
  paidAt: Date,
  now: Date,
): Promise<{ company: Company; invoice: Invoice } | null> {
  const { ledger, companies, plans, invoices, suspensions, journal } = deps;
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

/**
 * Applies what a gateway reports about one of our charges (the `billing.apply-payment` job): the state
 * is read from the gateway, whatever a notification said. A charge paid settles its invoice once, so an
 * event delivered three times, or two events about one payment, settle it once; a cancelled, expired or
 * refunded charge only records its state (a refund leaves the invoice paid: the platform decides). A
 * charge that is not ours, or that the gateway does not know, is ignored. Answers the state applied, or
 * null when nothing changed.
 */
export class ApplyPayment {
  constructor(
    private readonly deps: {
      gateway: PaymentGateway | null;
      charges: Charges;
      ledger: BillingLedger;
      companies: Companies;
      plans: Plans;
      invoices: Invoices;
      suspensions: Suspensions;
      tx: Transaction;
      clock: Clock;
      realtime: RealtimeEvents<PaymentEvent>;
      journal: BillingJournal;
    },
  ) {}

  async execute(input: ApplyPaymentPayload): Promise<ChargeStatus | null> {
    const { gateway, journal } = this.deps;
    if (!gateway || gateway.provider !== input.provider) {
      journal.warn({ provider: input.provider, chargeId: input.chargeId }, 'a payment of a gateway no longer configured was not applied');
      return null;
    }
    const reported = await gateway.getCharge(input.chargeId);
    if (!reported) {
      journal.warn({ provider: input.provider, chargeId: input.chargeId }, 'a notified charge is unknown to the gateway');
      return null;
    }
    const outcome = await this.deps.tx.run(() => this.apply(input.provider, reported));
    if (outcome?.settled) {
      const { company, invoice } = outcome.settled;
      await this.deps.realtime.publish(company.id, {
        entity: 'payment',
        data: { action: 'CONCLUIDA', company: toCompanyView(company), invoice: toInvoiceView(invoice) },
      });
    }
    return outcome?.status ?? null;
  }

  private async apply(provider: string, reported: GatewayCharge) {
    const { charges, clock, journal } = this.deps;
    const charge = await charges.lockByGatewayId(provider, reported.id);
    if (!charge || !mayMove(charge.status, reported.status)) return null;
    const now = clock.now();
    if (charge.status === 'paid') {
      journal.warn({ companyId: charge.companyId, invoiceId: charge.invoiceId, chargeId: reported.id }, 'a paid charge was refunded: the invoice stays paid');
    }
    charge.status = reported.status;
    charge.updatedAt = now;
    let settled: Awaited<ReturnType<typeof settleInvoice>> = null;
    if (reported.status === 'paid') {
      charge.paidAt = reported.paidAt ?? now;
      settled = await settleInvoice(this.deps, charge, charge.paidAt, now);
    }
    await charges.update(charge);
    return { status: charge.status, settled };
  }
}
