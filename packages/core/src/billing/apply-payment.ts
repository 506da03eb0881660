import { toInvoiceView } from '../company-api/invoice.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { toCompanyView } from '../tenancy/company.js';
import type { PaymentEvent } from './billing-events.js';
import type { ChargeStatus } from './charge.js';
import type { InvoiceSettlement } from './invoice-settlement.js';
import type { BillingJournal, Charges, GatewayCharge, PaymentGateway } from './ports.js';
import type { ApplyPaymentPayload } from './receive-payment-notice.js';

/** The moves a charge may make: a pending one ends any way; a paid one can only be refunded. */
function mayMove(from: ChargeStatus, to: ChargeStatus): boolean {
  if (from === to) return false;
  return from === 'pending' || (from === 'paid' && to === 'refunded');
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
      settlement: InvoiceSettlement;
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
    let settled: Awaited<ReturnType<InvoiceSettlement['settle']>> = null;
    if (reported.status === 'paid') {
      charge.paidAt = reported.paidAt ?? now;
      settled = await this.deps.settlement.settle(charge, charge.paidAt, now);
    }
    await charges.update(charge);
    return { status: charge.status, settled };
  }
}
