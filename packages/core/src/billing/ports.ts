import type { Invoice } from '../company-api/invoice.js';
import type { CompanySuspensions } from '../tenancy/ports.js';
import type { Charge, ChargeStatus, NewCharge } from './charge.js';

/** A Pix charge to issue: the amount of one invoice, payable until `expiresAt`. */
export interface PixChargeRequest {
  /**
   * The gateway's idempotency key: a request repeated with the same key (two clicks at once, a retry
   * after a timeout) gets the charge the first one created, never a second.
   */
  readonly idempotencyKey: string;
  /** Our reference the gateway keeps with the charge (`invoice-<id>`). */
  readonly reference: string;
  readonly amount: string;
  readonly description: string;
  readonly payer: { readonly name: string; readonly email: string; readonly document: string | null };
  readonly expiresAt: Date;
}

/** A charge as the gateway reports it, its state mapped onto ours. */
export interface GatewayCharge {
  readonly id: string;
  readonly status: ChargeStatus;
  readonly amount: string;
  readonly expiresAt: Date;
  /** When the payment was received; null until then. */
  readonly paidAt: Date | null;
  readonly copyPaste: string;
  readonly qrCodePng: string;
}

/** A notification as it reached us: what a signature may cover (headers, the query string, the exact body). */
export interface PaymentNotification {
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly query: Readonly<Record<string, string | undefined>>;
  readonly rawBody: Buffer;
}

/**
 * What a notification is about: the gateway's event id (the same on every redelivery of one event)
 * and its charge. `status` when the notification says it; the charge's state is read from the
 * gateway anyway before anything is settled.
 */
export interface PaymentNotice {
  readonly eventId: string;
  readonly chargeId: string;
  readonly status: ChargeStatus | null;
}

/**
 * A payment gateway that issues Pix charges and notifies their changes with signed webhooks.
 * Adapters follow the outgoing-call rules (public addresses only unless allowed) and throw 503
 * `ERR_PAYMENT_GATEWAY_UNAVAILABLE` (no answer, a 5xx or 429, an answer that is not a charge) or 503
 * `ERR_PAYMENT_GATEWAY_REFUSED` (the gateway refused the platform's request: its credentials).
 */
export interface PaymentGateway {
  /** The gateway's name in our tables (`mercadopago`). */
  readonly provider: string;
  createPixCharge(request: PixChargeRequest): Promise<GatewayCharge>;
  /** The charge as the gateway has it now; null when it does not know that id. */
  getCharge(id: string): Promise<GatewayCharge | null>;
  /** Whether the notification carries the gateway's valid signature (false, never a throw, on anything else). */
  verifyWebhook(notification: PaymentNotification): boolean;
  /** What a verified notification is about; null for a notification that is not about a payment (a test ping, another topic). */
  parseEvent(notification: PaymentNotification): PaymentNotice | null;
  /** Checks that the gateway accepts the platform's credentials (throws as the other calls do). */
  checkAccess(): Promise<void>;
}

/** The charges of every company's invoices. Reads taking a company id filter by it. */
export interface Charges {
  /** The invoice's latest charge still `pending` whose payer has until after `after` to pay, or null. */
  reusable(companyId: number, invoiceId: number, after: Date): Promise<Charge | null>;
  /** How many charges the invoice has had. */
  countOf(companyId: number, invoiceId: number): Promise<number>;
  /**
   * Stores a charge the gateway issued; when its gateway id is already stored (the gateway answered a
   * repeated idempotency key with the same charge), answers the stored one and writes nothing.
   */
  add(charge: NewCharge): Promise<Charge>;
  /** By the gateway's id, its row locked until the transaction ends (one payment applies at a time). */
  lockByGatewayId(provider: string, gatewayChargeId: string): Promise<Charge | null>;
  /** Saves `status`, `paidAt` and `updatedAt`. */
  update(charge: Charge): Promise<void>;
}

/** One gateway notification, kept so that its redeliveries change nothing. */
export interface PaymentEventRecord {
  readonly provider: string;
  readonly eventId: string;
  readonly chargeId: string;
  readonly receivedAt: Date;
}

export interface PaymentEvents {
  /** Records the event; false (and nothing written) when that provider's event id is already recorded. */
  record(event: PaymentEventRecord): Promise<boolean>;
}

export interface Suspension {
  readonly companyId: number;
  readonly suspendedAt: Date;
  /** The due date the company was overdue on. */
  readonly dueDate: string;
}

/** Suspended companies: at most one suspension each. */
export interface Suspensions extends CompanySuspensions {
  find(companyId: number): Promise<Suspension | null>;
  /** False when the company is already suspended. */
  suspend(suspension: Suspension): Promise<boolean>;
  /** False when it was not. */
  lift(companyId: number): Promise<boolean>;
}

/** The invoices and companies as billing reads and locks them (their tables are other features'). */
export interface BillingLedger {
  /** The company's invoice, its row locked until the transaction ends; null when it is not the company's. */
  lockInvoice(companyId: number, invoiceId: number): Promise<Invoice | null>;
  /** Locks the company's row until the transaction ends: its due date moves by one payment at a time. */
  lockCompany(companyId: number): Promise<void>;
  /** The company's invoice of the billing cycle ending that day, whatever its status (the lowest id if several). */
  invoiceOfCycle(companyId: number, dueDate: string): Promise<Invoice | null>;
}

/** Whether the platform takes a gateway's notifications, and the URL it gave for them. */
export interface BillingWebhook {
  readonly provider: string;
  readonly url: string;
  readonly enabled: boolean;
  /** When the gateway last accepted the platform's credentials on a registration. */
  readonly verifiedAt: Date | null;
  readonly updatedAt: Date;
}

/** One row per gateway; absent means notifications are taken (nobody turned them off). */
export interface BillingWebhooks {
  find(provider: string): Promise<BillingWebhook | null>;
  save(webhook: BillingWebhook): Promise<void>;
}

/** Where billing reports what an operator should know: a refused notification, a payment it could not apply, what a cycle did. */
export interface BillingJournal {
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
}

/** The deployment's billing rules. */
export interface BillingSettings {
  /** Days an overdue company keeps working before it is suspended. */
  readonly graceDays: number;
  /** How many days before a company's due date its invoice is issued. */
  readonly invoiceLeadDays: number;
  /** The URL the gateway must notify (`<PUBLIC_URL>/subscription/return/<RETURN_TOKEN>/pix`). */
  readonly notificationUrl: string;
}
