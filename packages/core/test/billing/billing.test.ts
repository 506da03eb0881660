import { expect } from 'chai';
import { createApplication, type JobDefinition, type User } from '../../src/index.js';
import { userFixture } from '../contracts/repositories-contract.js';
import { invoiceDraft } from '../contracts/billing-contract.js';
import { code, ticketWorld } from '../messaging/ticket-world.js';

const DAY = 86_400_000;

/**
 * Acme (plan P: 99.90 a month) and Other on in-memory ports, with a recording journal, three days of
 * grace and invoices seven days ahead; the clock at 2026-01-01 12:00 UTC.
 */
async function billingWorld() {
  const w = await ticketWorld();
  const journal = { infos: [] as Array<[Record<string, unknown>, string]>, warnings: [] as Array<[Record<string, unknown>, string]> };
  const app = createApplication({
    ...w.ports,
    billingJournal: {
      info: (d, m) => {
        journal.infos.push([d, m]);
      },
      warn: (d, m) => {
        journal.warnings.push([d, m]);
      },
    },
    billingSettings: { graceDays: 3, invoiceLeadDays: 7, notificationUrl: 'https://desk.test/subscription/return/token/pix' },
  });
  const { ports } = w;
  ports.jobDefinitions.push(...app.billing.jobs());
  const definitions = new Map<string, JobDefinition<any>>(ports.jobDefinitions.map((d) => [d.name, d]));
  /** Runs every due one-off job until none is left; answers how many ran. */
  async function drainJobs(): Promise<number> {
    let runs = 0;
    for (;;) {
      const [job] = await ports.jobStore.claim({ owner: 'test', limit: 1, leaseMs: new Map([...definitions.keys()].map((n) => [n, 60_000])) });
      if (!job) return runs;
      await definitions.get(job.name)!.run({ id: job.id, name: job.name, payload: job.payload, attempt: job.attempt, runAt: job.runAt });
      await ports.jobStore.complete(job.lease);
      runs++;
    }
  }
  const setDueDate = async (companyId: number, dueDate: string) => {
    await ports.companies.update({ ...(await ports.companies.findById(companyId))!, dueDate });
  };
  const invoice = (companyId = w.acme.id, dueDate = '2026-01-05', overrides = {}) => ports.invoices.add(invoiceDraft(companyId, dueDate, overrides));
  /** Pays an invoice: the admin asks for the charge, the payer pays it at the gateway; answers the gateway's id. */
  const pay = async (invoiceId: number, at = ports.clock.now()) => {
    const { chargeId } = await app.billing.payInvoice.execute({ actor: w.admin, invoiceId });
    const { gatewayChargeId } = ports.charges.table.get(chargeId)!;
    ports.paymentGateway.settle(gatewayChargeId, 'paid', at);
    return gatewayChargeId;
  };
  const gateway = ports.paymentGateway;
  const payments = () => ports.realtime.events.filter((e) => e.entity === 'payment');
  return { ...w, app, journal, drainJobs, setDueDate, invoice, pay, gateway, payments };
}

describe('Billing: paying an invoice by Pix', () => {
  it("an admin gets a Pix charge of the invoice's value, from the company's data, and the same charge again while it is payable", async () => {
    const w = await billingWorld();
    await w.ports.companies.update({ ...(await w.ports.companies.findById(w.acme.id))!, email: 'financeiro@acme.test', document: '12345678000190' });
    const inv = await w.invoice();
    const charge = await w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: inv.id });
    expect(charge).to.deep.include({ invoiceId: inv.id, status: 'pending', amount: '99.90', expiresAt: '2026-01-01T13:00:00.000Z' });
    expect(charge.pix.copyPaste).to.match(/^000201/);
    expect(charge.pix.qrCodePng).to.be.a('string').and.not.equal('');
    expect(w.gateway.requests).to.have.length(1);
    expect(w.gateway.requests[0]).to.deep.include({
      reference: `invoice-${inv.id}`,
      amount: '99.90',
      payer: { name: 'Acme', email: 'financeiro@acme.test', document: '12345678000190' },
    });
    // Asked again: the same charge, the gateway not called.
    expect((await w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: inv.id })).chargeId).to.equal(charge.chargeId);
    expect(w.gateway.requests).to.have.length(1);
    // With less than five minutes left to pay it, a new charge (a new idempotency key).
    w.ports.clock.advance(56 * 60_000);
    const next = await w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: inv.id });
    expect(next.chargeId).to.not.equal(charge.chargeId);
    const key = `invoice-${inv.id}-${inv.createdAt.getTime()}-charge`;
    expect(w.gateway.requests.map((r) => r.idempotencyKey)).to.deep.equal([`${key}-1`, `${key}-2`]);
  });

  it('without a company e-mail the payer is the admin who asks', async () => {
    const w = await billingWorld();
    const inv = await w.invoice();
    await w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: inv.id });
    expect(w.gateway.requests[0]!.payer).to.deep.equal({ name: 'Acme', email: 'admin@acme.test', document: null });
  });

  it("refuses operators, another company's invoice, an invoice not open or worth nothing, and says when the gateway is away", async () => {
    const w = await billingWorld();
    const inv = await w.invoice();
    expect(await code(w.app.billing.payInvoice.execute({ actor: w.ana, invoiceId: inv.id }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.billing.payInvoice.execute({ actor: w.otherAdmin, invoiceId: inv.id }))).to.equal('ERR_NO_INVOICE_FOUND');
    const paid = await w.invoice(w.acme.id, '2026-02-05', { status: 'paid', paidAt: new Date() });
    expect(await code(w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: paid.id }))).to.equal('ERR_INVOICE_NOT_OPEN');
    const cancelled = await w.invoice(w.acme.id, '2026-03-05', { status: 'cancelled' });
    expect(await code(w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: cancelled.id }))).to.equal('ERR_INVOICE_NOT_OPEN');
    const free = await w.invoice(w.acme.id, '2026-04-05', { value: '0.00' });
    expect(await code(w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: free.id }))).to.equal('ERR_INVOICE_NOTHING_TO_PAY');
    w.gateway.down = true;
    expect(await code(w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: inv.id }))).to.equal('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
    const { paymentGateway: _none, ...withoutGateway } = w.ports;
    const unconfigured = createApplication(withoutGateway);
    expect(await code(unconfigured.billing.payInvoice.execute({ actor: w.admin, invoiceId: inv.id }))).to.equal('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
    expect(w.ports.charges.table.filter(() => true)).to.deep.equal([]);
  });
});

describe("Billing: the gateway's notifications", () => {
  it('one event delivered three times settles its invoice once: paid, due date one month on, suspension lifted, one frame', async () => {
    const w = await billingWorld();
    await w.setDueDate(w.acme.id, '2026-01-05');
    await w.ports.companySuspensions.suspend({ companyId: w.acme.id, suspendedAt: new Date(), dueDate: '2025-12-20' });
    const inv = await w.invoice();
    const paidAt = new Date('2026-01-01T12:30:00.000Z');
    const chargeId = await w.pay(inv.id, paidAt);
    const answers = [];
    for (let i = 0; i < 3; i++) answers.push(await w.app.billing.receivePaymentNotice.execute(w.gateway.notification('evt-1', chargeId)));
    expect(answers).to.deep.equal([{ accepted: true }, { accepted: false }, { accepted: false }]);
    expect(await w.drainJobs()).to.equal(1);
    expect(await w.ports.invoices.findById(w.acme.id, inv.id))
      .to.include({ status: 'paid' })
      .and.have.deep.property('paidAt', paidAt);
    // Paid early: one month from the due date, no day lost.
    expect((await w.ports.companies.findById(w.acme.id))!.dueDate).to.equal('2026-02-05');
    expect(await w.ports.companySuspensions.isSuspended(w.acme.id)).to.equal(false);
    expect(w.payments()).to.have.length(1);
    expect(w.payments()[0]).to.deep.include({ companyId: w.acme.id });
    expect(w.payments()[0]!.data).to.deep.include({ action: 'CONCLUIDA' });
    // Another event about the same payment (a later update): nothing moves again.
    await w.app.billing.receivePaymentNotice.execute(w.gateway.notification('evt-2', chargeId));
    expect(await w.drainJobs()).to.equal(1);
    expect((await w.ports.companies.findById(w.acme.id))!.dueDate).to.equal('2026-02-05');
    expect(w.payments()).to.have.length(1);
    expect(w.ports.charges.table.get(1)).to.include({ status: 'paid' });
  });

  it('paid late, the new period starts the day it was paid', async () => {
    const w = await billingWorld();
    await w.setDueDate(w.acme.id, '2025-12-20');
    const inv = await w.invoice(w.acme.id, '2025-12-20');
    const chargeId = await w.pay(inv.id);
    await w.app.billing.applyPayment.execute({ provider: w.gateway.provider, chargeId });
    expect((await w.ports.companies.findById(w.acme.id))!.dueDate).to.equal('2026-02-01');
  });

  it('an unsigned or wrongly signed notification changes nothing, and is logged', async () => {
    const w = await billingWorld();
    const inv = await w.invoice();
    const chargeId = await w.pay(inv.id);
    const forged = { ...w.gateway.notification('evt-1', chargeId), headers: { 'x-signature': 'forged', 'x-request-id': 'r-1' } };
    for (const n of [w.gateway.notification('evt-1', chargeId, false), forged]) {
      expect(await code(w.app.billing.receivePaymentNotice.execute(n))).to.equal('ERR_INVALID_PAYMENT_SIGNATURE');
    }
    expect(await w.drainJobs()).to.equal(0);
    expect(w.ports.paymentEvents.rows).to.deep.equal([]);
    expect(await w.ports.invoices.findById(w.acme.id, inv.id)).to.include({ status: 'open' });
    expect(w.journal.warnings).to.have.length(2);
    expect(w.journal.warnings[1]).to.deep.equal([
      { provider: 'in-memory', 'x-request-id': 'r-1', bytes: forged.rawBody.length },
      'payment notification refused: missing or wrong signature',
    ]);
  });

  it('applies each state as the gateway reports it: pending waits, cancelled and expired end the charge, a refund leaves the invoice paid', async () => {
    const w = await billingWorld();
    const apply = (chargeId: string) => w.app.billing.applyPayment.execute({ provider: w.gateway.provider, chargeId });
    const a = await w.invoice(w.acme.id, '2026-01-05');
    const { chargeId: first } = await w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: a.id });
    const gatewayId = (id: number) => w.ports.charges.table.get(id)!.gatewayChargeId;
    expect(await apply(gatewayId(first)), 'still pending: nothing to do').to.equal(null);
    w.gateway.settle(gatewayId(first), 'expired');
    expect(await apply(gatewayId(first))).to.equal('expired');
    expect(await w.ports.invoices.findById(w.acme.id, a.id)).to.include({ status: 'open' });
    // A new charge for the same invoice, cancelled at the gateway.
    const { chargeId: second } = await w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: a.id });
    expect(second).to.not.equal(first);
    w.gateway.settle(gatewayId(second), 'cancelled');
    expect(await apply(gatewayId(second))).to.equal('cancelled');
    // An ended charge does not come back to life.
    w.gateway.settle(gatewayId(second), 'paid', new Date());
    expect(await apply(gatewayId(second))).to.equal(null);
    expect(await w.ports.invoices.findById(w.acme.id, a.id)).to.include({ status: 'open' });
    // Paid, then refunded: the charge says so, the invoice stays paid, and the platform is told.
    const { chargeId: third } = await w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: a.id });
    w.gateway.settle(gatewayId(third), 'paid', new Date());
    expect(await apply(gatewayId(third))).to.equal('paid');
    w.gateway.settle(gatewayId(third), 'refunded');
    expect(await apply(gatewayId(third))).to.equal('refunded');
    expect(await w.ports.invoices.findById(w.acme.id, a.id)).to.include({ status: 'paid' });
    expect(w.journal.warnings.map(([, m]) => m)).to.deep.equal(['a paid charge was refunded: the invoice stays paid']);
    // Charges that are not ours, or that the gateway does not know, are ignored.
    expect(await apply('pix-999')).to.equal(null);
    expect(await w.app.billing.applyPayment.execute({ provider: 'another-gateway', chargeId: gatewayId(first) })).to.equal(null);
  });

  it('a second charge of an invoice already paid settles nothing more', async () => {
    const w = await billingWorld();
    const inv = await w.invoice();
    const { chargeId: one } = await w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: inv.id });
    w.ports.clock.advance(56 * 60_000);
    const { chargeId: two } = await w.app.billing.payInvoice.execute({ actor: w.admin, invoiceId: inv.id });
    const ids = [one, two].map((id) => w.ports.charges.table.get(id)!.gatewayChargeId);
    for (const id of ids) {
      w.gateway.settle(id, 'paid', w.ports.clock.now());
      await w.app.billing.applyPayment.execute({ provider: w.gateway.provider, chargeId: id });
    }
    expect((await w.ports.companies.findById(w.acme.id))!.dueDate).to.equal('2027-01-31');
    expect(w.payments()).to.have.length(1);
    expect(w.journal.warnings.map(([, m]) => m)).to.deep.equal(['a payment arrived for an invoice already paid: refund it by hand']);
  });

  it('a notification about something else is acknowledged and ignored; turned off, notifications are refused until turned on again', async () => {
    const w = await billingWorld();
    const ping = { headers: { 'x-signature': 'signed' }, query: {}, rawBody: Buffer.from('{"type":"test"}') };
    expect(await w.app.billing.receivePaymentNotice.execute(ping)).to.deep.equal({ accepted: false });
    const superUser = await w.ports.users.add(userFixture(w.acme.id, 'root@acme.test', { profile: 'super' }));
    const root = { userId: superUser.id, companyId: w.acme.id, profile: 'super' as const };
    expect(await code(w.app.billing.disableWebhook.execute({ actor: w.admin }))).to.equal('ERR_NO_PERMISSION');
    expect(await w.app.billing.disableWebhook.execute({ actor: root })).to.deep.equal({
      provider: 'in-memory',
      url: 'https://desk.test/subscription/return/token/pix',
      enabled: false,
      verifiedAt: null,
    });
    expect(await code(w.app.billing.receivePaymentNotice.execute(ping))).to.equal('ERR_PAYMENT_NOTIFICATIONS_DISABLED');
    expect(await w.app.billing.registerWebhook.execute()).to.deep.equal({
      provider: 'in-memory',
      url: 'https://desk.test/subscription/return/token/pix',
      enabled: true,
      verifiedAt: '2026-01-01T12:00:00.000Z',
    });
    expect(await w.app.billing.receivePaymentNotice.execute(ping)).to.deep.equal({ accepted: false });
    w.gateway.down = true;
    expect(await code(w.app.billing.registerWebhook.execute())).to.equal('ERR_PAYMENT_GATEWAY_UNAVAILABLE');
  });
});

describe('Billing: the cycle, suspension and restoration', () => {
  it("issues each cycle's invoice once, seven days ahead, for the plan's amount", async () => {
    const w = await billingWorld();
    await w.setDueDate(w.acme.id, '2026-01-09');
    await w.setDueDate(w.other.id, '2026-01-08');
    const first = await w.app.billing.runBillingCycle.execute();
    expect(first.invoiced).to.deep.equal([w.other.id]);
    w.ports.clock.advance(DAY);
    expect((await w.app.billing.runBillingCycle.execute()).invoiced).to.deep.equal([w.acme.id]);
    expect((await w.app.billing.runBillingCycle.execute()).invoiced).to.deep.equal([]);
    const invoices = (await w.ports.invoices.list({ companyId: null, page: { offset: 0, limit: 20 } })).rows;
    expect(invoices.map((i) => [i.companyId, i.dueDate, i.value, i.status, i.detail])).to.deep.equal([
      [w.acme.id, '2026-01-09', '99.90', 'open', 'P (2026-01-09)'],
      [w.other.id, '2026-01-08', '99.90', 'open', 'P (2026-01-08)'],
    ]);
  });

  it('leaves companies without a due date, disabled ones and free plans alone', async () => {
    const w = await billingWorld();
    const free = await w.ports.plans.add({ ...(await w.ports.plans.findById(w.acme.planId))!, name: 'Free', amount: '0.00' });
    await w.ports.companies.update({ ...(await w.ports.companies.findById(w.acme.id))!, dueDate: '2025-12-01', planId: free.id });
    await w.ports.companies.update({ ...(await w.ports.companies.findById(w.other.id))!, dueDate: '2025-12-01', status: false });
    await w.ports.companies.add({ ...(await w.ports.companies.findById(w.other.id))!, name: 'Platform', dueDate: null, status: true });
    expect(await w.app.billing.runBillingCycle.execute()).to.deep.equal({ invoiced: [], settled: [], suspended: [], restored: [] });
  });

  it('suspends a company overdue past the grace days: its operators cannot log in or work, nobody sends; its admins log in; payment restores it', async () => {
    const w = await billingWorld();
    const password = (u: Partial<User>) => ({ ...u, passwordHash: 'test-hash:pw-0123456789' });
    await w.ports.users.add(userFixture(w.acme.id, 'op@acme.test', password({})));
    await w.ports.users.update({ ...(await w.ports.users.findById(w.acme.id, w.admin.userId))!, passwordHash: 'test-hash:pw-0123456789' });
    const login = (email: string) => w.app.identity.login.execute({ email, password: 'pw-0123456789', ip: '10.0.0.1' });
    const opSession = await login('op@acme.test');
    const ticket = await w.ticket({ status: 'open', userId: w.admin.userId });

    await w.setDueDate(w.acme.id, '2025-12-29');
    expect((await w.app.billing.runBillingCycle.execute()).suspended, 'three days late: still in grace').to.deep.equal([]);
    w.ports.clock.advance(DAY);
    const cycle = await w.app.billing.runBillingCycle.execute();
    expect(cycle.suspended).to.deep.equal([w.acme.id]);
    expect(await w.ports.companySuspensions.find(w.acme.id)).to.deep.include({ dueDate: '2025-12-29' });
    expect((await w.app.billing.runBillingCycle.execute()).suspended, 'once').to.deep.equal([]);

    expect(await code(login('op@acme.test'))).to.equal('ERR_COMPANY_SUSPENDED');
    expect(await code(w.app.identity.authenticate.execute(opSession.token))).to.equal('ERR_COMPANY_SUSPENDED');
    expect(await code(w.app.identity.refreshToken.execute({ refreshToken: opSession.refreshToken }))).to.equal('ERR_COMPANY_SUSPENDED');
    const adminSession = await login('admin@acme.test');
    expect((await w.app.identity.authenticate.execute(adminSession.token)).actor.userId).to.equal(w.admin.userId);
    expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.admin, ticketId: ticket.id, body: 'Olá' }))).to.equal('ERR_COMPANY_SUSPENDED');
    // A private note is not a send.
    expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.admin, ticketId: ticket.id, body: 'nota', isPrivate: true }))).to.equal(
      'resolved',
    );
    expect(await code(w.app.conversations.sendApiMessage.execute({ connection: w.connection, number: '5511988887777', body: 'Oi' }))).to.equal(
      'ERR_COMPANY_SUSPENDED',
    );
    const inbound = await w.message(ticket, { body: 'Quero o boleto' });
    const someone = await w.contact();
    expect(await code(w.app.conversations.forwardMessage.execute({ actor: w.admin, messageId: inbound.id, contactId: someone.id }))).to.equal(
      'ERR_COMPANY_SUSPENDED',
    );
    // Nothing was taken away, and the other company works.
    expect(await w.ports.users.findByEmail('op@acme.test')).to.not.equal(null);
    expect(await code(w.app.conversations.sendApiMessage.execute({ connection: w.otherConnection, number: '5511988887777', body: 'Oi' }))).to.equal('resolved');

    // The admin pays the cycle's invoice (issued by the cycle): the company works again at once.
    const [due] = (await w.ports.invoices.list({ companyId: w.acme.id, page: { offset: 0, limit: 20 } })).rows;
    expect(due).to.include({ dueDate: '2025-12-29', status: 'open' });
    const chargeId = await w.pay(due!.id);
    await w.app.billing.receivePaymentNotice.execute(w.gateway.notification('evt-9', chargeId));
    await w.drainJobs();
    expect(await w.ports.companySuspensions.isSuspended(w.acme.id)).to.equal(false);
    expect((await w.ports.companies.findById(w.acme.id))!.dueDate).to.equal('2026-02-02');
    expect((await w.app.identity.authenticate.execute(opSession.token)).actor.companyId).to.equal(w.acme.id);
    expect(await code(login('op@acme.test'))).to.equal('resolved');
    expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.admin, ticketId: ticket.id, body: 'Olá' }))).to.equal('resolved');
  });

  it('restores a company whose due date a super user moved, and moves the due date of a cycle paid by hand', async () => {
    const w = await billingWorld();
    await w.setDueDate(w.acme.id, '2025-12-20');
    await w.setDueDate(w.other.id, '2025-12-20');
    expect((await w.app.billing.runBillingCycle.execute()).suspended).to.deep.equal([w.acme.id, w.other.id]);
    // Acme: the due date moved by a super user's edit.
    await w.setDueDate(w.acme.id, '2026-01-31');
    // Other: its cycle's invoice marked paid by hand (PUT /invoices/:id), which moves no due date.
    const [theirs] = (await w.ports.invoices.list({ companyId: w.other.id, page: { offset: 0, limit: 20 } })).rows;
    await w.ports.invoices.update({ ...theirs!, status: 'paid', paidAt: new Date('2026-01-01T09:00:00.000Z') });
    const report = await w.app.billing.runBillingCycle.execute();
    expect(report).to.deep.equal({ invoiced: [], settled: [w.other.id], suspended: [], restored: [w.acme.id, w.other.id] });
    expect((await w.ports.companies.findById(w.other.id))!.dueDate).to.equal('2026-02-01');
    expect(await w.ports.companySuspensions.isSuspended(w.acme.id)).to.equal(false);
  });

  it('the daily job reports what it did', async () => {
    const w = await billingWorld();
    await w.setDueDate(w.acme.id, '2026-01-03');
    const job = w.ports.jobDefinitions.find((d) => d.name === 'billing.cycle')!;
    expect(job.every).to.equal(DAY);
    await job.run({ id: 'j', name: job.name, payload: null, attempt: 1, runAt: w.ports.clock.now() });
    expect(w.journal.infos).to.deep.equal([[{ invoiced: [w.acme.id], settled: [], suspended: [], restored: [] }, 'billing cycle']]);
    expect(invoiceOf(await w.ports.invoices.list({ companyId: w.acme.id, page: { offset: 0, limit: 5 } }))).to.deep.equal(['2026-01-03']);
  });
});

const invoiceOf = (page: { rows: Array<{ dueDate: string }> }) => page.rows.map((r) => r.dueDate);
