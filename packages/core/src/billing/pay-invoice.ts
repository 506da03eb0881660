import type { Invoices } from '../company-api/ports.js';
import type { Users } from '../identity/ports.js';
import { assertAdmin, type Actor } from '../shared/actor.js';
import { ConflictError, NotFoundError, ServiceUnavailableError } from '../shared/errors.js';
import type { Clock } from '../shared/ports.js';
import type { Companies } from '../tenancy/ports.js';
import { CHARGE_REUSE_MARGIN_MS, PIX_CHARGE_LIFETIME_MS, toChargeView, type ChargeView } from './charge.js';
import type { Charges, PaymentGateway } from './ports.js';

export interface PayInvoiceInput {
  readonly actor: Actor;
  readonly invoiceId: number;
}

/**
 * A company admin asks to pay one of the company's open invoices: a Pix charge for the invoice's
 * value (never an amount the client sends). A pending charge of the invoice the payer still has time
 * to pay is handed out again instead of a second one; two requests at once send the gateway the same
 * idempotency key and so get one charge.
 */
export class PayInvoice {
  constructor(
    private readonly deps: {
      invoices: Invoices;
      charges: Charges;
      companies: Companies;
      users: Users;
      gateway: PaymentGateway | null;
      clock: Clock;
    },
  ) {}

  async execute(input: PayInvoiceInput): Promise<ChargeView> {
    const { invoices, charges, companies, users, gateway, clock } = this.deps;
    const { actor } = input;
    assertAdmin(actor);
    const invoice = await invoices.findById(actor.companyId, input.invoiceId);
    if (!invoice) throw new NotFoundError('ERR_NO_INVOICE_FOUND');
    if (invoice.status !== 'open') throw new ConflictError('ERR_INVOICE_NOT_OPEN');
    if (Number(invoice.value) <= 0) throw new ConflictError('ERR_INVOICE_NOTHING_TO_PAY');
    const now = clock.now();
    const reusable = await charges.reusable(invoice.companyId, invoice.id, new Date(now.getTime() + CHARGE_REUSE_MARGIN_MS));
    if (reusable) return toChargeView(reusable);
    if (!gateway) throw new ServiceUnavailableError('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
    const company = await companies.findById(invoice.companyId);
    const user = await users.findById(invoice.companyId, actor.userId);
    if (!company || !user) throw new NotFoundError('ERR_NO_COMPANY_FOUND');
    // The invoice's creation time makes the key unique to this database's invoice, should the gateway
    // account have seen another `invoice-1` (a database started again).
    const attempt = (await charges.countOf(invoice.companyId, invoice.id)) + 1;
    const issued = await gateway.createPixCharge({
      idempotencyKey: `invoice-${invoice.id}-${invoice.createdAt.getTime()}-charge-${attempt}`,
      reference: `invoice-${invoice.id}`,
      amount: invoice.value,
      description: `${invoice.detail} (#${invoice.id})`.slice(0, 250),
      payer: { name: company.name, email: company.email ?? user.email, document: company.document },
      expiresAt: new Date(now.getTime() + PIX_CHARGE_LIFETIME_MS),
    });
    const stored = await charges.add({
      companyId: invoice.companyId,
      invoiceId: invoice.id,
      provider: gateway.provider,
      gatewayChargeId: issued.id,
      status: issued.status,
      amount: issued.amount,
      copyPaste: issued.copyPaste,
      qrCodePng: issued.qrCodePng,
      expiresAt: issued.expiresAt,
      paidAt: issued.paidAt,
      createdAt: now,
      updatedAt: now,
    });
    return toChargeView(stored);
  }
}
