export type InvoiceStatus = 'open' | 'paid' | 'cancelled';
export const INVOICE_STATUSES: readonly InvoiceStatus[] = ['open', 'paid', 'cancelled'];

/** What a company owes the platform for one period. Belongs to exactly one company. */
export interface Invoice {
  id: number;
  companyId: number;
  detail: string;
  status: InvoiceStatus;
  /** A decimal string to keep cents exact. */
  value: string;
  /** Calendar day (YYYY-MM-DD) the invoice falls due. */
  dueDate: string;
  /** When it was marked paid; null while open or cancelled. */
  paidAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewInvoice = Omit<Invoice, 'id'>;

export interface InvoiceView extends Omit<Invoice, 'paidAt' | 'createdAt' | 'updatedAt'> {
  paidAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export function toInvoiceView(i: Invoice): InvoiceView {
  return {
    ...i,
    paidAt: i.paidAt ? i.paidAt.toISOString() : null,
    createdAt: i.createdAt.toISOString(),
    updatedAt: i.updatedAt.toISOString(),
  };
}
