/** How a partner's commission is computed: a percentage of the sale or a fixed amount. */
export type CommissionType = 'percent' | 'fixed';
export const COMMISSION_TYPES: readonly CommissionType[] = ['percent', 'fixed'];

/** A reseller or affiliate of the platform; platform-wide, not per tenant. */
export interface Partner {
  id: number;
  name: string;
  email: string | null;
  phone: string | null;
  document: string | null;
  /** A decimal string to keep cents exact: a percentage or an amount, by `typeCommission`. */
  commission: string;
  typeCommission: CommissionType;
  /** The partner's wallet at the payment provider, for split payments. */
  walletId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewPartner = Omit<Partner, 'id'>;

export interface PartnerView extends Omit<Partner, 'createdAt' | 'updatedAt'> {
  createdAt: string;
  updatedAt: string;
}

export function toPartnerView(p: Partner): PartnerView {
  return { ...p, createdAt: p.createdAt.toISOString(), updatedAt: p.updatedAt.toISOString() };
}
