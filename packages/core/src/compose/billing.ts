import { ApplyPayment } from '../billing/apply-payment.js';
import { InvoiceSettlement } from '../billing/invoice-settlement.js';
import { RunBillingCycle } from '../billing/billing-cycle.js';
import { DisableBillingWebhook, RegisterBillingWebhook } from '../billing/billing-webhook.js';
import { PayInvoice } from '../billing/pay-invoice.js';
import type { BillingJournal, BillingLedger, BillingSettings, BillingWebhooks, Charges, PaymentEvents, PaymentGateway, Suspensions } from '../billing/ports.js';
import { APPLY_PAYMENT_JOB, ReceivePaymentNotice, type ApplyPaymentPayload } from '../billing/receive-payment-notice.js';
import type { JobDefinition } from '../jobs/job.js';
import type { SharedPorts } from './shared-ports.js';

/** Billing's own ports: its tables, the suspensions identity and messaging read, and the gateway. */
export interface BillingPorts {
  readonly charges: Charges;
  readonly paymentEvents: PaymentEvents;
  /** Read by sign-in and the sends (a suspended company), written by the billing cycle and payments. */
  readonly companySuspensions: Suspensions;
  readonly billingLedger: BillingLedger;
  readonly billingWebhooks: BillingWebhooks;
  /** Absent when no gateway is configured: paying answers 503 `ERR_PAYMENT_GATEWAY_UNAVAILABLE`. */
  readonly paymentGateway?: PaymentGateway;
  /** Default: 3 days of grace, invoices 7 days ahead. */
  readonly billingSettings?: BillingSettings;
  /** Default: warnings are dropped. */
  readonly billingJournal?: BillingJournal;
}

export const BILLING_CYCLE_JOB = 'billing.cycle';
export const DEFAULT_BILLING_SETTINGS: BillingSettings = { graceDays: 3, invoiceLeadDays: 7, notificationUrl: '' };
const SILENT_JOURNAL: BillingJournal = { info() {}, warn() {} };

/** Subscriptions: invoices per cycle, Pix payments through the gateway, suspension of overdue companies. */
export function createBilling(p: BillingPorts & SharedPorts) {
  const { charges, invoices, companies, plans, users, tx, clock, realtime } = p;
  const gateway = p.paymentGateway ?? null;
  const settings = p.billingSettings ?? DEFAULT_BILLING_SETTINGS;
  const journal = p.billingJournal ?? SILENT_JOURNAL;
  const suspensions = p.companySuspensions;
  const ledger = p.billingLedger;
  const webhooks = { gateway, webhooks: p.billingWebhooks, clock, settings };
  const applyPayment = new ApplyPayment({
    gateway,
    charges,
    settlement: new InvoiceSettlement({ ledger, companies, plans, invoices, suspensions, journal }),
    tx,
    clock,
    realtime,
    journal,
  });
  const runBillingCycle = new RunBillingCycle({ companies, plans, invoices, ledger, suspensions, tx, clock, settings });
  return {
    payInvoice: new PayInvoice({ invoices, charges, companies, users, gateway, clock }),
    receivePaymentNotice: new ReceivePaymentNotice({ gateway, events: p.paymentEvents, webhooks: p.billingWebhooks, jobQueue: p.jobQueue, tx, clock, journal }),
    applyPayment,
    runBillingCycle,
    registerWebhook: new RegisterBillingWebhook(webhooks),
    disableWebhook: new DisableBillingWebhook(webhooks),
    /**
     * Both call the gateway or open a transaction per company, so neither runs in the job's transaction;
     * each is idempotent. A payment is retried while the gateway is away (up to about half an hour).
     */
    jobs: (): JobDefinition<any>[] => [
      {
        name: APPLY_PAYMENT_JOB,
        atomic: false,
        maxAttempts: 10,
        run: async (job) => {
          await applyPayment.execute(job.payload as ApplyPaymentPayload);
        },
      },
      {
        name: BILLING_CYCLE_JOB,
        every: 24 * 3600_000,
        atomic: false,
        leaseMs: 10 * 60_000,
        run: async () => {
          const report = await runBillingCycle.execute();
          if (Object.values(report).some((ids) => ids.length)) journal.info({ ...report }, 'billing cycle');
        },
      },
    ],
  };
}
export type BillingApi = ReturnType<typeof createBilling>;
