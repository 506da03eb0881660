import type { InvoiceView } from '../company-api/invoice.js';
import type { RealtimeEventOf } from '../realtime/ports.js';
import type { CompanyView } from '../tenancy/company.js';

/**
 * `company-<id>-payment`: an invoice was paid through the gateway. The action is the lineage's
 * (`CONCLUIDA`, which its checkout page waits for); `company` carries the new due date.
 */
export type PaymentEvent = RealtimeEventOf<'payment', { readonly action: 'CONCLUIDA'; readonly company: CompanyView; readonly invoice: InvoiceView }>;
