import { EntitySchema } from '@mikro-orm/core';
import { CHARGE_STATUSES, type Charge } from '@servicedesk/core/billing/charge';
import type { BillingWebhook, PaymentEventRecord, Suspension } from '@servicedesk/core/billing/ports';
import { foreignKeysOf } from '../shared/columns.js';
import { DayType } from '../shared/day-type.js';

const charges = foreignKeysOf('billing_charges');

/** As m0031 creates `billing_charges`. */
export const ChargeSchema = new EntitySchema<Charge>({
  name: 'Charge',
  tableName: 'billing_charges',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: charges('company_id', 'Company', 'cascade'),
    invoiceId: charges('invoice_id', 'Invoice', 'cascade'),
    provider: { type: 'string', length: 30 },
    gatewayChargeId: { type: 'string', length: 100 },
    status: { type: 'string', enum: true, items: [...CHARGE_STATUSES], columnType: 'varchar(10)' },
    amount: { type: 'decimal', columnType: 'numeric(12,2)' },
    copyPaste: { type: 'text' },
    qrCodePng: { type: 'text' },
    expiresAt: { type: 'Date' },
    paidAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [{ name: 'billing_charges_provider_gateway_charge_id_key', properties: ['provider', 'gatewayChargeId'] }],
  indexes: [{ name: 'billing_charges_invoice_idx', properties: ['companyId', 'invoiceId'] }],
});

/** As m0031 creates `payment_events`: one row per gateway event. */
export const PaymentEventSchema = new EntitySchema<PaymentEventRecord & { id: number }>({
  name: 'PaymentEvent',
  tableName: 'payment_events',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    provider: { type: 'string', length: 30 },
    eventId: { type: 'string', length: 200 },
    chargeId: { type: 'string', length: 100 },
    receivedAt: { type: 'Date' },
  },
  uniques: [{ name: 'payment_events_provider_event_id_key', properties: ['provider', 'eventId'] }],
});

const suspensions = foreignKeysOf('company_suspensions');

/** As m0031 creates `company_suspensions`. */
export const SuspensionSchema = new EntitySchema<Suspension>({
  name: 'Suspension',
  tableName: 'company_suspensions',
  properties: {
    companyId: suspensions('company_id', 'Company', 'cascade', { primary: true }),
    suspendedAt: { type: 'Date' },
    dueDate: { type: DayType },
  },
});

/** As m0031 creates `billing_webhooks`. */
export const BillingWebhookSchema = new EntitySchema<BillingWebhook>({
  name: 'BillingWebhook',
  tableName: 'billing_webhooks',
  properties: {
    provider: { type: 'string', length: 30, primary: true },
    url: { type: 'string', length: 500 },
    enabled: { type: 'boolean' },
    verifiedAt: { type: 'Date', nullable: true },
    updatedAt: { type: 'Date' },
  },
});

export const BILLING_SCHEMAS = [ChargeSchema, PaymentEventSchema, SuspensionSchema, BillingWebhookSchema];
