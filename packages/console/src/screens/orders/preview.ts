import type { Order, OrderItem } from '@servicedesk/core/orders/order';
import { renderStatusMessage } from '@servicedesk/core/orders/status-messages';

/** The variables a status message may name, as the server replaces them (`renderStatusMessage`). */
export const ORDER_VARIABLES = ['number', 'total', 'subtotal', 'discount', 'shipping', 'items', 'payment', 'paymentMethod', 'address'] as const;
export const CONVERSATION_VARIABLES = ['firstName', 'name', 'userName', 'ticket_id', 'queue', 'connection', 'name_company', 'date', 'hour', 'ms'] as const;

/** What the preview fills a template with: an example order of two lines in the setting's currency. */
export interface PreviewFacts {
  readonly currency: string;
  readonly paymentInstructions: string;
  readonly contactName: string;
  readonly userName: string;
  readonly companyName: string;
  readonly connectionName: string;
  readonly timeZone: string;
  readonly at: Date;
  /** Two example lines: names and unit prices in minor units. */
  readonly lines: ReadonlyArray<{ name: string; unitPrice: number; quantity: number }>;
}

/** A status text as the contact would read it for the example order, by the server's own rendering. */
export function previewStatusMessage(template: string, f: PreviewFacts): string {
  const items: OrderItem[] = f.lines.map((l, i) => ({
    id: i + 1,
    companyId: 0,
    orderId: 0,
    productId: i + 1,
    name: l.name,
    sku: null,
    unitPrice: l.unitPrice,
    quantity: l.quantity,
    total: l.unitPrice * l.quantity,
    reserved: 0,
    position: i,
  }));
  const subtotal = items.reduce((sum, i) => sum + i.total, 0);
  const shippingFee = 1000;
  const order: Order = {
    id: 0,
    companyId: 0,
    number: 42,
    contactId: 0,
    ticketId: 0,
    userId: 0,
    status: 'new',
    currency: f.currency,
    subtotal,
    discount: 0,
    shippingFee,
    total: subtotal + shippingFee,
    paymentMethod: 'Pix',
    notes: '',
    address: 'Rua das Flores, 100',
    version: 1,
    createdAt: f.at,
    updatedAt: f.at,
  };
  return renderStatusMessage(
    template,
    { order, items, paymentInstructions: f.paymentInstructions },
    {
      contactName: f.contactName,
      userName: f.userName,
      ticketId: 1234,
      queueName: '',
      connectionName: f.connectionName,
      companyName: f.companyName,
      at: f.at,
      timeZone: f.timeZone,
    },
  ).trim();
}
