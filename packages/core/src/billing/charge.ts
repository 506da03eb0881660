/**
 * Where a charge stands, in the platform's words; each gateway adapter maps its own states onto
 * these (every one of them: an unmapped "received" left invoices unpaid in the lineage).
 * `paid` settles the invoice; `pending` waits; `cancelled`, `expired` and `refunded` end the charge
 * without settling (a new one may be asked for).
 */
export type ChargeStatus = 'pending' | 'paid' | 'cancelled' | 'expired' | 'refunded';
export const CHARGE_STATUSES: readonly ChargeStatus[] = ['pending', 'paid', 'cancelled', 'expired', 'refunded'];

/** How long a Pix charge can be paid; the gateway refuses to take it after that. */
export const PIX_CHARGE_LIFETIME_MS = 60 * 60_000;
/** A pending charge is handed out again only while the payer still has this long to pay it. */
export const CHARGE_REUSE_MARGIN_MS = 5 * 60_000;

/** A Pix charge the gateway issued for one invoice of a company. */
export interface Charge {
  id: number;
  companyId: number;
  invoiceId: number;
  /** The gateway that issued it (`mercadopago`) and its id there. */
  provider: string;
  gatewayChargeId: string;
  status: ChargeStatus;
  /** A decimal string, as the invoice's value. */
  amount: string;
  /** The Pix "copia e cola" text and its QR code (PNG, base64). */
  copyPaste: string;
  qrCodePng: string;
  expiresAt: Date;
  paidAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewCharge = Omit<Charge, 'id'>;

/** `POST /subscription`'s answer: what the payer needs to pay. */
export interface ChargeView {
  readonly invoiceId: number;
  readonly chargeId: number;
  readonly status: ChargeStatus;
  readonly amount: string;
  readonly expiresAt: string;
  readonly pix: { readonly copyPaste: string; readonly qrCodePng: string };
}

export function toChargeView(c: Charge): ChargeView {
  return {
    invoiceId: c.invoiceId,
    chargeId: c.id,
    status: c.status,
    amount: c.amount,
    expiresAt: c.expiresAt.toISOString(),
    pix: { copyPaste: c.copyPaste, qrCodePng: c.qrCodePng },
  };
}
