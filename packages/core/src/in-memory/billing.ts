import type { Charge, ChargeStatus, NewCharge } from '../billing/charge.js';
import type {
  BillingLedger,
  BillingWebhook,
  BillingWebhooks,
  Charges,
  GatewayCharge,
  PaymentEventRecord,
  PaymentEvents,
  PaymentGateway,
  PaymentNotice,
  PaymentNotification,
  PixChargeRequest,
  Suspension,
  Suspensions,
} from '../billing/ports.js';
import { ServiceUnavailableError } from '../shared/errors.js';
import type { InMemoryInvoices } from './company-api.js';
import { InMemoryTable } from './table.js';

/** Charges in memory; a gateway id stored twice answers the first row, as the SQL unique key does. */
export class InMemoryCharges implements Charges {
  readonly table = new InMemoryTable<Charge>();

  async reusable(companyId: number, invoiceId: number, after: Date) {
    const rows = this.table.filter((c) => c.companyId === companyId && c.invoiceId === invoiceId && c.status === 'pending' && c.expiresAt > after);
    return rows.sort((a, b) => b.id - a.id)[0] ?? null;
  }
  async countOf(companyId: number, invoiceId: number) {
    return this.table.filter((c) => c.companyId === companyId && c.invoiceId === invoiceId).length;
  }
  async add(charge: NewCharge) {
    return this.table.find((c) => c.provider === charge.provider && c.gatewayChargeId === charge.gatewayChargeId) ?? this.table.insert(charge);
  }
  async lockByGatewayId(provider: string, gatewayChargeId: string) {
    return this.table.find((c) => c.provider === provider && c.gatewayChargeId === gatewayChargeId);
  }
  async update(charge: Charge) {
    const stored = this.table.get(charge.id);
    if (stored) this.table.replace({ ...stored, status: charge.status, paidAt: charge.paidAt, updatedAt: charge.updatedAt });
  }
  /** ON DELETE CASCADE: hook into `InMemoryCompanies.onRemove`. */
  dropCompany(companyId: number) {
    for (const c of this.table.filter((row) => row.companyId === companyId)) this.table.delete(c.id);
  }
}

export class InMemoryPaymentEvents implements PaymentEvents {
  readonly rows: PaymentEventRecord[] = [];
  async record(event: PaymentEventRecord) {
    if (this.rows.some((r) => r.provider === event.provider && r.eventId === event.eventId)) return false;
    this.rows.push({ ...event });
    return true;
  }
}

export class InMemorySuspensions implements Suspensions {
  readonly rows = new Map<number, Suspension>();
  async isSuspended(companyId: number) {
    return this.rows.has(companyId);
  }
  async find(companyId: number) {
    return this.rows.get(companyId) ?? null;
  }
  async suspend(s: Suspension) {
    if (this.rows.has(s.companyId)) return false;
    this.rows.set(s.companyId, { ...s });
    return true;
  }
  async lift(companyId: number) {
    return this.rows.delete(companyId);
  }
}

/** The invoices' table read as billing does; locks are implicit (in-memory units of work run one at a time). */
export class InMemoryBillingLedger implements BillingLedger {
  constructor(private readonly invoices: InMemoryInvoices) {}
  async lockInvoice(companyId: number, invoiceId: number) {
    return this.invoices.findById(companyId, invoiceId);
  }
  async lockCompany() {
    /* SerialTransaction already runs one unit of work at a time */
  }
  async invoiceOfCycle(companyId: number, dueDate: string) {
    return this.invoices.table.filter((i) => i.companyId === companyId && i.dueDate === dueDate).sort((a, b) => a.id - b.id)[0] ?? null;
  }
}

export class InMemoryBillingWebhooks implements BillingWebhooks {
  readonly rows = new Map<string, BillingWebhook>();
  async find(provider: string) {
    return this.rows.get(provider) ?? null;
  }
  async save(webhook: BillingWebhook) {
    this.rows.set(webhook.provider, { ...webhook });
  }
}

/**
 * A gateway for tests: charges kept in memory (one per idempotency key), paid or ended by the test
 * (`settle`), notifications built by `notification` — signed unless told otherwise — and `down` makes
 * every call fail as an unreachable gateway does.
 */
export class InMemoryPaymentGateway implements PaymentGateway {
  readonly provider = 'in-memory';
  readonly requests: PixChargeRequest[] = [];
  readonly charges = new Map<string, GatewayCharge>();
  private readonly byKey = new Map<string, string>();
  down = false;

  async createPixCharge(request: PixChargeRequest): Promise<GatewayCharge> {
    this.assertUp();
    this.requests.push(request);
    const known = this.byKey.get(request.idempotencyKey);
    if (known) return this.charges.get(known)!;
    const id = `pix-${this.charges.size + 1}`;
    const charge: GatewayCharge = {
      id,
      status: 'pending',
      amount: request.amount,
      expiresAt: request.expiresAt,
      paidAt: null,
      copyPaste: `00020126580014br.gov.bcb.pix-${id}`,
      qrCodePng: Buffer.from(`png ${id}`).toString('base64'),
    };
    this.charges.set(id, charge);
    this.byKey.set(request.idempotencyKey, id);
    return charge;
  }
  async getCharge(id: string) {
    this.assertUp();
    return this.charges.get(id) ?? null;
  }
  verifyWebhook(n: PaymentNotification) {
    return n.headers['x-signature'] === 'signed';
  }
  parseEvent(n: PaymentNotification): PaymentNotice | null {
    try {
      const body = JSON.parse(n.rawBody.toString('utf8')) as { eventId?: unknown; chargeId?: unknown };
      return typeof body.eventId === 'string' && typeof body.chargeId === 'string' ? { eventId: body.eventId, chargeId: body.chargeId, status: null } : null;
    } catch {
      return null;
    }
  }
  async checkAccess() {
    this.assertUp();
  }

  /** The gateway moves a charge on (the payer paid, it expired, it was refunded). */
  settle(id: string, status: ChargeStatus, paidAt: Date | null = null) {
    const charge = this.charges.get(id);
    if (charge) this.charges.set(id, { ...charge, status, paidAt: paidAt ?? charge.paidAt });
  }
  /** A notification of event `eventId` about charge `chargeId`, as the gateway would post it. */
  notification(eventId: string, chargeId: string, signed = true): PaymentNotification {
    return { headers: signed ? { 'x-signature': 'signed' } : {}, query: {}, rawBody: Buffer.from(JSON.stringify({ eventId, chargeId })) };
  }
  private assertUp() {
    if (this.down) throw new ServiceUnavailableError('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
  }
}
