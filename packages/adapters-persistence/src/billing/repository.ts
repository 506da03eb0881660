import type { MikroORM } from '@mikro-orm/core';
import type { Charge, NewCharge } from '@servicedesk/core/billing/charge';
import type {
  BillingLedger,
  BillingWebhook,
  BillingWebhooks,
  Charges,
  PaymentEventRecord,
  PaymentEvents,
  Suspension,
  Suspensions,
} from '@servicedesk/core/billing/ports';
import { InvoiceSchema } from '../company-api/schema.js';
import { MikroOrmRepository } from '../shared/context.js';
import { BillingWebhookSchema, ChargeSchema, SuspensionSchema } from './schema.js';

const READ = { disableIdentityMap: true } as const;
/** A positive int4: anything else names no row (and must not reach an int4 parameter). */
const isId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;

export class MikroOrmCharges extends MikroOrmRepository implements Charges {
  async reusable(companyId: number, invoiceId: number, after: Date) {
    if (!isId(invoiceId)) return null;
    return this.em.findOne(ChargeSchema, { companyId, invoiceId, status: 'pending', expiresAt: { $gt: after } }, { ...READ, orderBy: { id: 'desc' } });
  }
  async countOf(companyId: number, invoiceId: number) {
    if (!isId(invoiceId)) return 0;
    return this.em.count(ChargeSchema, { companyId, invoiceId });
  }
  /** The unique key on the gateway's id decides: a second row for one gateway charge is never written. */
  async add(c: NewCharge): Promise<Charge> {
    const rows = await this.em.execute<Array<{ id: number }>>(
      `insert into billing_charges (company_id, invoice_id, provider, gateway_charge_id, status, amount, copy_paste, qr_code_png, expires_at, paid_at, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict (provider, gateway_charge_id) do nothing returning id`,
      [c.companyId, c.invoiceId, c.provider, c.gatewayChargeId, c.status, c.amount, c.copyPaste, c.qrCodePng, c.expiresAt, c.paidAt, c.createdAt, c.updatedAt],
    );
    if (rows.length) return { ...c, id: rows[0]!.id };
    return (await this.em.findOne(ChargeSchema, { provider: c.provider, gatewayChargeId: c.gatewayChargeId }, READ))!;
  }
  async lockByGatewayId(provider: string, gatewayChargeId: string) {
    const rows = await this.em.execute<Array<{ id: number }>>('select id from billing_charges where provider = ? and gateway_charge_id = ? for update', [
      provider,
      gatewayChargeId,
    ]);
    return rows.length ? this.em.findOne(ChargeSchema, { id: rows[0]!.id }, READ) : null;
  }
  async update(c: Charge) {
    await this.em.nativeUpdate(ChargeSchema, { id: c.id, companyId: c.companyId }, { status: c.status, paidAt: c.paidAt, updatedAt: c.updatedAt });
  }
}

export class MikroOrmPaymentEvents extends MikroOrmRepository implements PaymentEvents {
  /** The unique key on (provider, event id) decides, also between two deliveries at once. */
  async record(e: PaymentEventRecord) {
    const rows = await this.em.execute(
      'insert into payment_events (provider, event_id, charge_id, received_at) values (?, ?, ?, ?) on conflict (provider, event_id) do nothing returning id',
      [e.provider, e.eventId, e.chargeId, e.receivedAt],
    );
    return rows.length === 1;
  }
}

export class MikroOrmSuspensions extends MikroOrmRepository implements Suspensions {
  async isSuspended(companyId: number) {
    return (await this.em.count(SuspensionSchema, { companyId })) > 0;
  }
  async find(companyId: number) {
    return this.em.findOne(SuspensionSchema, { companyId }, READ);
  }
  async suspend(s: Suspension) {
    const rows = await this.em.execute(
      'insert into company_suspensions (company_id, suspended_at, due_date) values (?, ?, ?) on conflict (company_id) do nothing returning company_id',
      [s.companyId, s.suspendedAt, s.dueDate],
    );
    return rows.length === 1;
  }
  async lift(companyId: number) {
    return (await this.em.nativeDelete(SuspensionSchema, { companyId })) > 0;
  }
}

/** Plain SQL on `invoices` and `companies`: the core's tables, which every database has. */
export class MikroOrmBillingLedger extends MikroOrmRepository implements BillingLedger {
  async lockInvoice(companyId: number, invoiceId: number) {
    if (!isId(invoiceId)) return null;
    const rows = await this.em.execute('select id from invoices where id = ? and company_id = ? for update', [invoiceId, companyId]);
    return rows.length ? this.em.findOne(InvoiceSchema, { id: invoiceId, companyId }, READ) : null;
  }
  async lockCompany(companyId: number) {
    await this.em.execute('select id from companies where id = ? for update', [companyId]);
  }
  async invoiceOfCycle(companyId: number, dueDate: string) {
    return this.em.findOne(InvoiceSchema, { companyId, dueDate }, { ...READ, orderBy: { id: 'asc' } });
  }
}

export class MikroOrmBillingWebhooks extends MikroOrmRepository implements BillingWebhooks {
  async find(provider: string) {
    return this.em.findOne(BillingWebhookSchema, { provider }, READ);
  }
  async save(w: BillingWebhook) {
    await this.em.execute(
      `insert into billing_webhooks (provider, url, enabled, verified_at, updated_at) values (?, ?, ?, ?, ?)
       on conflict (provider) do update set url = excluded.url, enabled = excluded.enabled, verified_at = excluded.verified_at, updated_at = excluded.updated_at`,
      [w.provider, w.url, w.enabled, w.verifiedAt, w.updatedAt],
    );
  }
}

/** Billing's repositories over one ORM. */
export const billingRepositories = (orm: MikroORM) => ({
  charges: new MikroOrmCharges(orm),
  paymentEvents: new MikroOrmPaymentEvents(orm),
  companySuspensions: new MikroOrmSuspensions(orm),
  billingLedger: new MikroOrmBillingLedger(orm),
  billingWebhooks: new MikroOrmBillingWebhooks(orm),
});
