import { expect } from 'chai';
import type { Companies, Invoices, NewInvoice, Plans } from '../../src/index.js';
import type { NewCharge } from '../../src/billing/charge.js';
import type { BillingLedger, BillingWebhooks, Charges, PaymentEvents, Suspensions } from '../../src/billing/ports.js';
import { twoCompanies } from './repositories-contract.js';

export interface BillingFixture {
  readonly charges: Charges;
  readonly paymentEvents: PaymentEvents;
  readonly companySuspensions: Suspensions;
  readonly billingLedger: BillingLedger;
  readonly billingWebhooks: BillingWebhooks;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly invoices: Invoices;
}

const T0 = new Date('2026-05-01T10:00:00.000Z');
const minutes = (n: number) => new Date(T0.getTime() + n * 60_000);

export function invoiceDraft(companyId: number, dueDate: string, overrides: Partial<NewInvoice> = {}): NewInvoice {
  return { companyId, detail: `Plano (${dueDate})`, status: 'open', value: '99.90', dueDate, paidAt: null, createdAt: T0, updatedAt: T0, ...overrides };
}

export function chargeDraft(companyId: number, invoiceId: number, gatewayChargeId: string, overrides: Partial<NewCharge> = {}): NewCharge {
  return {
    companyId,
    invoiceId,
    provider: 'mercadopago',
    gatewayChargeId,
    status: 'pending',
    amount: '99.90',
    copyPaste: `000201-${gatewayChargeId}`,
    qrCodePng: 'iVBORw0KGgo=',
    expiresAt: minutes(60),
    paidAt: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

/** Plain data, whatever class the adapter builds its rows with. */
const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);

/** One suite for every adapter of billing's ports. */
export function describeBillingContract(name: string, make: () => Promise<BillingFixture>) {
  describe(`Billing repositories contract: ${name}`, () => {
    let r: BillingFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
    }

    it("stores a charge as given; the gateway's id is stored once, a second add answering the first", async () => {
      await given();
      const invoice = await r.invoices.add(invoiceDraft(c1, '2026-05-10'));
      const added = await r.charges.add(chargeDraft(c1, invoice.id, '1000000001'));
      expect(plain(await r.charges.lockByGatewayId('mercadopago', '1000000001'))).to.deep.equal(added);
      const again = await r.charges.add(chargeDraft(c1, invoice.id, '1000000001', { copyPaste: 'other', createdAt: minutes(1) }));
      expect(plain(again)).to.deep.equal(added);
      expect(await r.charges.countOf(c1, invoice.id)).to.equal(1);
      expect(await r.charges.lockByGatewayId('another-gateway', '1000000001')).to.equal(null);
      expect(await r.charges.lockByGatewayId('mercadopago', '404')).to.equal(null);
    });

    it("hands out an invoice's latest pending charge that is still payable, never another company's", async () => {
      await given();
      const invoice = await r.invoices.add(invoiceDraft(c1, '2026-05-10'));
      const other = await r.invoices.add(invoiceDraft(c1, '2026-06-10'));
      expect(await r.charges.reusable(c1, invoice.id, T0)).to.equal(null);
      await r.charges.add(chargeDraft(c1, invoice.id, 'a', { expiresAt: minutes(30) }));
      const latest = await r.charges.add(chargeDraft(c1, invoice.id, 'b', { expiresAt: minutes(60) }));
      await r.charges.add(chargeDraft(c1, invoice.id, 'c', { status: 'cancelled', expiresAt: minutes(90) }));
      await r.charges.add(chargeDraft(c1, other.id, 'd', { expiresAt: minutes(120) }));
      expect((await r.charges.reusable(c1, invoice.id, T0))?.id).to.equal(latest.id);
      expect(await r.charges.reusable(c1, invoice.id, minutes(60)), 'the payer must still have time').to.equal(null);
      expect(await r.charges.reusable(c2, invoice.id, T0)).to.equal(null);
      expect(await r.charges.countOf(c1, invoice.id)).to.equal(3);
      expect(await r.charges.countOf(c2, invoice.id)).to.equal(0);
      expect(await r.charges.reusable(c1, 2_147_483_648, T0)).to.equal(null);
    });

    it('an update saves the state, the payment time and updatedAt alone', async () => {
      await given();
      const invoice = await r.invoices.add(invoiceDraft(c1, '2026-05-10'));
      const added = await r.charges.add(chargeDraft(c1, invoice.id, '77'));
      await r.charges.update({ ...added, status: 'paid', paidAt: minutes(5), updatedAt: minutes(6), amount: '1.00', copyPaste: 'changed' });
      expect(plain(await r.charges.lockByGatewayId('mercadopago', '77'))).to.deep.equal({
        ...added,
        status: 'paid',
        paidAt: minutes(5),
        updatedAt: minutes(6),
      });
    });

    it('records a gateway event once per gateway and event id', async () => {
      const event = { provider: 'mercadopago', eventId: '555', chargeId: '1000000001', receivedAt: T0 };
      expect(await r.paymentEvents.record(event)).to.equal(true);
      expect(await r.paymentEvents.record({ ...event, receivedAt: minutes(1) })).to.equal(false);
      expect(await r.paymentEvents.record({ ...event, provider: 'another-gateway' })).to.equal(true);
      expect(await r.paymentEvents.record({ ...event, eventId: '556' })).to.equal(true);
    });

    it('suspends a company once, until it is lifted', async () => {
      await given();
      const suspension = { companyId: c1, suspendedAt: T0, dueDate: '2026-04-27' };
      expect(await r.companySuspensions.isSuspended(c1)).to.equal(false);
      expect(await r.companySuspensions.suspend(suspension)).to.equal(true);
      expect(await r.companySuspensions.suspend({ ...suspension, suspendedAt: minutes(1) })).to.equal(false);
      expect(await r.companySuspensions.isSuspended(c1)).to.equal(true);
      expect(await r.companySuspensions.isSuspended(c2)).to.equal(false);
      expect(plain(await r.companySuspensions.find(c1))).to.deep.equal(suspension);
      expect(await r.companySuspensions.lift(c1)).to.equal(true);
      expect(await r.companySuspensions.lift(c1)).to.equal(false);
      expect(await r.companySuspensions.find(c1)).to.equal(null);
    });

    it("reads a company's invoice to settle, and the invoice of a cycle whatever its status", async () => {
      await given();
      const paid = await r.invoices.add(invoiceDraft(c1, '2026-05-10', { status: 'paid', paidAt: minutes(3) }));
      await r.invoices.add(invoiceDraft(c1, '2026-05-10'));
      const theirs = await r.invoices.add(invoiceDraft(c2, '2026-06-10'));
      expect(plain(await r.billingLedger.lockInvoice(c1, paid.id))).to.deep.equal(paid);
      expect(await r.billingLedger.lockInvoice(c1, theirs.id)).to.equal(null);
      expect(await r.billingLedger.lockInvoice(c1, 2_147_483_648)).to.equal(null);
      await r.billingLedger.lockCompany(c1);
      expect((await r.billingLedger.invoiceOfCycle(c1, '2026-05-10'))?.id).to.equal(paid.id);
      expect(await r.billingLedger.invoiceOfCycle(c1, '2026-06-10')).to.equal(null);
      expect((await r.billingLedger.invoiceOfCycle(c2, '2026-06-10'))?.id).to.equal(theirs.id);
    });

    it('keeps one webhook row per gateway', async () => {
      expect(await r.billingWebhooks.find('mercadopago')).to.equal(null);
      const webhook = { provider: 'mercadopago', url: 'https://desk.test/subscription/return/t/pix', enabled: true, verifiedAt: T0, updatedAt: T0 };
      await r.billingWebhooks.save(webhook);
      expect(plain(await r.billingWebhooks.find('mercadopago'))).to.deep.equal(webhook);
      await r.billingWebhooks.save({ ...webhook, enabled: false, updatedAt: minutes(1) });
      expect(plain(await r.billingWebhooks.find('mercadopago'))).to.deep.equal({ ...webhook, enabled: false, updatedAt: minutes(1) });
      expect(await r.billingWebhooks.find('another-gateway')).to.equal(null);
    });
  });
}
