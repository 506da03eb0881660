import { expect } from 'chai';
import { mercadoPagoNotification, startFakeMercadoPago, type FakeMercadoPago, type FakeNotification } from '@servicedesk/core/contracts/fake-mercado-pago';
import { addMonths } from '@servicedesk/core/billing/billing-period';
import { requestScope } from '../../src/container.js';
import { eventually } from '../support/eventually.js';
import { sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, client, COMPANY_TOKEN, login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const TOKEN = 'APP_USR-0123456789-platform';
const SECRET = 'mp-webhook-secret-0123456789';
const RETURN = 'return-token-0123456789abcdef';
const DAY = 86_400_000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

describe('HTTP: subscriptions (Pix through Mercado Pago, notifications, suspension)', () => {
  let b: TestBackend;
  let fake: FakeMercadoPago;
  before(async () => {
    fake = await startFakeMercadoPago({ tokens: [TOKEN] });
    b = await startTestBackend({
      BILLING_GATEWAY_URL: fake.baseUrl,
      BILLING_ACCESS_TOKEN: TOKEN,
      BILLING_WEBHOOK_SECRET: SECRET,
      BILLING_RETURN_TOKEN: RETURN,
      ALLOW_PRIVATE_URLS: 'true',
    });
  });
  after(async () => {
    await b.close();
    await fake.close();
  });
  beforeEach(async () => {
    await b.reset();
    fake.requests.length = 0;
  });

  const inScope = <T>(work: () => Promise<T>) => requestScope(b.infra.db)(work);
  const sql = (query: string, params: unknown[] = []) => b.infra.db.orm.em.fork().getConnection().execute<Array<Record<string, any>>>(query, params);

  /** A company on a plan of 99.90 a month, with its admin. */
  async function payingCompany() {
    const { api } = await asSuper(b);
    const plan = await api.post('/plans', { name: `Pro ${Math.random().toString(36).slice(2, 8)}`, users: 5, connections: 2, queues: 3, amount: '99.90' });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    return newCompanyWithAdmin(b, { planId: plan.body.id });
  }

  async function bill(companyId: number, dueDate = day(5)) {
    const res = await client(b.url, COMPANY_TOKEN).post('/api/invoices', { companyId, detail: 'Pro', value: '99.90', dueDate });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as number;
  }

  /** Posts a notification as Mercado Pago does: the query on the URL, its headers, its raw body. */
  const notify = (n: FakeNotification, token = RETURN) => client(b.url).call('POST', `/subscription/return/${token}/pix${n.query}`, n.body, n.headers);

  it("an admin pays an open invoice by Pix: a charge of the invoice's value, asked of the gateway once while it is payable", async () => {
    const a = await payingCompany();
    const invoiceId = await bill(a.company.id);
    // The lineage's fields are ignored: the amount is the invoice's.
    const res = await a.api.post('/subscription', { invoiceId, price: 1, users: 99, plan: 'x' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.include({ invoiceId, status: 'pending', amount: '99.90' });
    expect(res.body.pix.copyPaste).to.match(/^000201/);
    expect(Buffer.from(res.body.pix.qrCodePng, 'base64').toString()).to.match(/^PNG of payment \d+$/);
    const [created] = fake.requests;
    expect(created).to.deep.include({ method: 'POST', path: '/v1/payments', authorization: `Bearer ${TOKEN}` });
    expect(created!.body).to.deep.include({ transaction_amount: 99.9, payment_method_id: 'pix', external_reference: `invoice-${invoiceId}` });
    expect(created!.idempotencyKey).to.match(new RegExp(`^invoice-${invoiceId}-\\d+-charge-1$`));
    const again = await a.api.post('/subscription', { invoiceId });
    expect(again.body.chargeId).to.equal(res.body.chargeId);
    expect(fake.requests).to.have.length(1);
  });

  it("refuses another company's invoice (404), operators (403), bad input (422), a paid invoice (409); a gateway that is down is 503", async () => {
    const a = await payingCompany();
    const other = await payingCompany();
    const theirs = await bill(other.company.id);
    const mine = await bill(a.company.id);
    expect(await a.api.post('/subscription', { invoiceId: theirs })).to.deep.include({ status: 404, body: { error: 'ERR_NO_INVOICE_FOUND' } });
    expect(await a.api.post('/subscription', { invoiceId: 999_999 })).to.deep.include({ status: 404 });
    for (const body of [{}, { invoiceId: 'abc' }, { invoiceId: -1 }, { invoiceId: 2_147_483_648 }]) {
      const res = await a.api.post('/subscription', body);
      expect(res.status, JSON.stringify(body)).to.equal(422);
      expect(res.body.error).to.equal('ERR_VALIDATION');
    }
    expect((await a.api.post('/subscription', '{"invoiceId":')).status).to.equal(400);
    await a.api.post('/users', { name: 'Operadora', email: `op-${a.company.id}@x.test`, password: 'operator-pass-1' });
    const op = client(b.url, (await login(b.url, `op-${a.company.id}@x.test`, 'operator-pass-1')).token);
    expect(await op.post('/subscription', { invoiceId: mine })).to.deep.include({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    const { api: root } = await asSuper(b);
    await root.put(`/invoices/${mine}`, { status: 'paid' });
    expect(await a.api.post('/subscription', { invoiceId: mine })).to.deep.include({ status: 409, body: { error: 'ERR_INVOICE_NOT_OPEN' } });
    const open = await bill(a.company.id, day(40));
    fake.mode = 'server-error';
    try {
      expect(await a.api.post('/subscription', { invoiceId: open })).to.deep.include({ status: 503, body: { error: 'ERR_PAYMENT_GATEWAY_UNAVAILABLE' } });
    } finally {
      fake.mode = 'ok';
    }
  });

  it('suspends an overdue company (its operators cannot log in, nobody sends), and one payment notified three times settles it once and lifts it', async () => {
    const a = await payingCompany();
    await a.api.post('/users', { name: 'Operadora', email: `op-${a.company.id}@x.test`, password: 'operator-pass-1' });
    const { api: root } = await asSuper(b);
    const dueDate = day(-10);
    expect((await root.put(`/companies/${a.company.id}`, { dueDate })).status).to.equal(200);
    const cycle = await inScope(() => b.app.billing.runBillingCycle.execute());
    expect(cycle).to.deep.include({ invoiced: [a.company.id], suspended: [a.company.id] });

    const refused = await client(b.url).post('/auth/login', { email: `op-${a.company.id}@x.test`, password: 'operator-pass-1' });
    expect(refused).to.deep.include({ status: 403, body: { error: 'ERR_COMPANY_SUSPENDED' } });

    // The admin logs in, finds the cycle's invoice and pays it.
    const admin = client(b.url, (await login(b.url, a.admin.email, 'admin-password-1')).token);
    const [invoice] = (await admin.get('/invoices')).body.invoices;
    expect(invoice).to.include({ dueDate, status: 'open', value: '99.90' });
    const charge = (await admin.post('/subscription', { invoiceId: invoice.id })).body;
    const paymentId = [...fake.payments.keys()].at(-1)!;
    fake.approve(paymentId);
    const n = mercadoPagoNotification(SECRET, paymentId, { notificationId: 7001 });
    for (let i = 0; i < 3; i++) expect(await notify(n)).to.deep.include({ status: 200, body: { ok: true } });

    const paid = await eventually('the invoice paid', async () => {
      const res = await admin.get(`/invoices/${invoice.id}`);
      return res.body.status === 'paid' ? res.body : null;
    });
    expect(Date.parse(paid.paidAt)).to.be.a('number').and.not.NaN;
    await eventually(
      'the operator let in again',
      async () => (await client(b.url).post('/auth/login', { email: `op-${a.company.id}@x.test`, password: 'operator-pass-1' })).status === 200,
    );
    // One event, one settlement: the due date moved one month from the day of payment, once.
    expect(await sql('select event_id from payment_events')).to.deep.equal([{ event_id: '7001' }]);
    const company = (await root.get(`/companies/${a.company.id}`)).body;
    expect(company.dueDate).to.equal(addMonths(new Date().toISOString().slice(0, 10), 1));
    expect((await sql('select status from billing_charges where id = ?', [charge.chargeId]))[0]!.status).to.equal('paid');
  });

  it("nobody of a suspended company sends: an operator's reply and the message API answer 403, and nothing goes out", async () => {
    const d = await sandboxDesk(b, { token: 'integration-token-0123456789abcdef' });
    const ticket = await d.inbound('5511977776666', 'Oi, preciso de ajuda');
    const { api: root, user } = await asSuper(b);
    const plan = await root.post('/plans', { name: 'Pago', users: 5, connections: 2, queues: 3, amount: '99.90' });
    expect((await root.put(`/companies/${user.companyId}`, { planId: plan.body.id, dueDate: day(-10) })).status).to.equal(200);
    expect((await inScope(() => b.app.billing.runBillingCycle.execute())).suspended).to.deep.equal([user.companyId]);
    expect(await d.admin.post(`/messages/${ticket.id}`, { body: 'Olá!' })).to.deep.include({ status: 403, body: { error: 'ERR_COMPANY_SUSPENDED' } });
    const api = client(b.url, 'integration-token-0123456789abcdef');
    expect(await api.post('/api/messages/send', { number: '5511977776666', body: 'Oi' })).to.deep.include({
      status: 403,
      body: { error: 'ERR_COMPANY_SUSPENDED' },
    });
    expect(d.sent()).to.deep.equal([]);
    // Its operators' sessions are kept but refused until it pays.
    expect(await d.ana.api.get('/tickets')).to.deep.include({ status: 403, body: { error: 'ERR_COMPANY_SUSPENDED' } });
  });

  it('an unsigned, wrongly signed or wrongly addressed notification changes nothing (401); garbage never answers 500', async () => {
    const a = await payingCompany();
    const invoiceId = await bill(a.company.id);
    await a.api.post('/subscription', { invoiceId });
    const paymentId = [...fake.payments.keys()].at(-1)!;
    fake.approve(paymentId);
    const good = mercadoPagoNotification(SECRET, paymentId);
    const refusals = [
      notify({ ...good, headers: { 'content-type': 'application/json' } }),
      notify(mercadoPagoNotification('another-secret-0123456789', paymentId)),
      notify({ ...good, query: `?data.id=${paymentId + 1}&type=payment` }),
      notify(good, 'wrong-token-0123456789abcdef'),
      notify({ ...good, body: '\u0000garbage', headers: {} }),
    ];
    for (const res of await Promise.all(refusals)) expect(res).to.deep.include({ status: 401, body: { error: 'ERR_INVALID_PAYMENT_SIGNATURE' } });
    // Signed but about nothing we can read, or not JSON at all: acknowledged.
    expect(await notify({ ...good, body: 'not json' })).to.deep.include({ status: 200, body: { ok: true } });
    expect(await notify({ ...mercadoPagoNotification(SECRET, 'abc'), query: '?data.id=abc&type=payment' })).to.deep.include({ status: 200 });
    expect((await notify({ ...good, body: 'x'.repeat(70 * 1024) })).status).to.equal(413);
    // Only the signed notifications were recorded (the unreadable body by its request id).
    expect((await sql('select count(*)::int as n from payment_events'))[0]!.n).to.equal(1);
  });

  it('the gateway check takes the webhook secret; a super user turns notifications off (503) and the check turns them on', async () => {
    const a = await payingCompany();
    expect(await client(b.url).post('/subscription/create/webhook', { chave: 'x', url: 'https://evil.test' })).to.deep.include({
      status: 401,
      body: { error: 'ERR_INVALID_WEBHOOK_SECRET' },
    });
    expect((await client(b.url).post('/subscription/create/webhook', {}, { 'x-webhook-secret': 'wrong-secret-0123456789' })).status).to.equal(401);
    const on = await client(b.url).post('/subscription/create/webhook', { chave: 'x', url: 'https://evil.test' }, { 'x-webhook-secret': SECRET });
    expect(on.status, JSON.stringify(on.body)).to.equal(200);
    expect(on.body).to.deep.include({ provider: 'mercadopago', url: `http://localhost:0/subscription/return/${RETURN}/pix`, enabled: true });
    expect(fake.requests.at(-1)).to.deep.include({ method: 'GET', path: '/users/me' });

    expect(await a.api.delete('/subscription/create/webhook')).to.deep.include({ status: 403, body: { error: 'ERR_NO_PERMISSION' } });
    const { api: root } = await asSuper(b);
    expect((await root.delete('/subscription/create/webhook')).body).to.include({ enabled: false });
    const ping = mercadoPagoNotification(SECRET, 1);
    expect(await notify(ping)).to.deep.include({ status: 503, body: { error: 'ERR_PAYMENT_NOTIFICATIONS_DISABLED' } });
    expect((await client(b.url).post('/subscription/create/webhook', {}, { 'x-webhook-secret': SECRET })).body).to.include({ enabled: true });
    expect(await notify(ping)).to.deep.include({ status: 200 });
  });
});
