import { expect } from 'chai';
import { mercadoPagoNotification, startFakeMercadoPago, type FakeMercadoPago } from '@servicedesk/core/contracts/fake-mercado-pago';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { requestScope } from '../../../backend/src/container.js';
import { eventually } from '../../../backend/test/support/sandbox-conversations.js';
import { asSuper, client, login, newCompanyWithAdmin, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const TOKEN = 'APP_USR-0123456789-console';
const SECRET = 'mp-webhook-secret-console-0123';
const RETURN = 'return-token-console-0123456789';
const DAY = 86_400_000;
const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

/**
 * The subscription screen in Chromium against the real backend and a fake Mercado Pago on
 * loopback: an overdue company (suspended by the billing cycle) whose admin lands on the screen
 * after signing in, the cycle's invoice paid by Pix (the QR code and the code copied), the gateway's
 * signed notification turning it "paid" live in two admins' browsers and lifting the overdue
 * notice; an operator reading without paying; Spanish at a phone's width. One backend, in order.
 */
describe('console: the subscription screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let fake: FakeMercadoPago;
  let browser: Browser;
  let page: Page;
  let context: BrowserContext;
  let other: Page;
  let company: Awaited<ReturnType<typeof newCompanyWithAdmin>>;
  let invoiceId: number;
  let detail: string;

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });

  before(async function () {
    prepareConsole(this);
    fake = await startFakeMercadoPago({ tokens: [TOKEN] });
    b = await startTestBackend({
      BILLING_GATEWAY_URL: fake.baseUrl,
      BILLING_ACCESS_TOKEN: TOKEN,
      BILLING_WEBHOOK_SECRET: SECRET,
      BILLING_RETURN_TOKEN: RETURN,
      ALLOW_PRIVATE_URLS: 'true',
      OUTBOX_RELAY_INTERVAL_MS: '100',
    });
    const { api } = await asSuper(b);
    const plan = await api.post('/plans', { name: 'Pro', users: 5, connections: 2, queues: 3, amount: '99.90' });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    company = await newCompanyWithAdmin(b, { planId: plan.body.id, name: 'Loja Verde' });
    for (const [name, profile] of [
      ['Bia', 'admin'],
      ['Caio', 'user'],
    ] as const) {
      const res = await company.api.post('/users', { name, email: `${name.toLowerCase()}@billing.test`, password: 'person-pass-12', profile });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    }
    browser = await launchChromium();
    ({ context, page } = await operator(browser));
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.url });
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await fake?.close();
  });

  it("an overdue company, suspended by the billing cycle: its admin lands on the subscription with the cycle's invoice", async () => {
    const { api } = await asSuper(b);
    const dueDate = day(-10);
    expect((await api.put(`/companies/${company.company.id}`, { dueDate })).status).to.equal(200);
    const cycle = await requestScope(b.infra.db)(() => b.app.billing.runBillingCycle.execute());
    expect(cycle).to.deep.include({ invoiced: [company.company.id], suspended: [company.company.id] });
    expect(await client(b.url).post('/auth/login', { email: 'caio@billing.test', password: 'person-pass-12' })).to.deep.include({
      status: 403,
      body: { error: 'ERR_COMPANY_SUSPENDED' },
    });
    const [invoice] = (await company.api.get('/invoices')).body.invoices;
    invoiceId = invoice.id;
    detail = invoice.detail;

    await signIn(page, b.url, company.admin.email, 'admin-password-1', '/app/');
    await page.waitForURL(/\/app\/billing$/);
    await page.getByRole('heading', { name: 'Subscription', level: 1 }).waitFor();
    await page.getByTestId('billing-overdue').filter({ hasText: 'The subscription is overdue since' }).waitFor();
    await page.getByTestId('overdue-banner').getByRole('link', { name: 'Pay the invoice' }).waitFor();
    const facts = page.getByTestId('plan-facts');
    await facts.getByText('Pro', { exact: true }).waitFor();
    await facts.getByText('R$ 99.90 (every month)').or(facts.getByText('R$99.90 (every month)')).waitFor();
    await row(page, detail).getByText('Open').waitFor();
    await expectAccessible(page, 'the subscription of an overdue company');
  });

  it('pays the invoice by Pix: the QR code and the code copied, then "paid" live in two admins\' browsers once the gateway confirms', async () => {
    await signIn(other, b.url, 'bia@billing.test', 'person-pass-12', '/app/billing');
    await row(other, detail).getByText('Open').waitFor();

    await page.getByRole('button', { name: `Pay by Pix: ${detail}` }).click();
    const dialog = page.getByRole('dialog', { name: `Pay ${detail} by Pix` });
    const code = dialog.getByLabel('Pix copy-and-paste code');
    await code.waitFor();
    expect(await code.inputValue()).to.match(/^000201/);
    const qr = dialog.getByRole('img', { name: /^Pix QR code of R\$\s?99\.90$/ });
    expect(await qr.getAttribute('src')).to.match(/^data:image\/svg\+xml/);
    await dialog.getByRole('button', { name: 'Copy the code' }).click();
    await dialog.getByText('Copied.').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(await code.inputValue());
    await dialog.getByTestId('pix-state').filter({ hasText: 'Waiting for the payment' }).waitFor();
    await expectAccessible(page, 'the Pix dialog');
    await shot(page, 'billing', 'pix');

    // The payer pays at the bank; the gateway notifies the platform, signed.
    const paymentId = [...fake.payments.keys()].at(-1)!;
    expect(fake.payments.get(paymentId)!.external_reference).to.equal(`invoice-${invoiceId}`);
    fake.approve(paymentId);
    const n = mercadoPagoNotification(SECRET, paymentId, { notificationId: 9001 });
    expect(await client(b.url).call('POST', `/subscription/return/${RETURN}/pix${n.query}`, n.body, n.headers)).to.deep.include({ status: 200 });

    await dialog.getByTestId('pix-state').filter({ hasText: 'Payment received: the invoice is paid.' }).waitFor();
    await row(other, detail).getByText('Paid', { exact: true }).waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await row(page, detail).getByText('Paid', { exact: true }).waitFor();
    // The company's due date moved: the overdue notice and banner are gone, live.
    await page.getByTestId('billing-overdue').waitFor({ state: 'detached' });
    await page.getByTestId('overdue-banner').waitFor({ state: 'detached' });
    expect(await page.getByRole('button', { name: `Pay by Pix: ${detail}` }).count()).to.equal(0);
    await shot(page, 'billing', 'paid');
    await eventually(
      'the operator let in again',
      async () => (await client(b.url).post('/auth/login', { email: 'caio@billing.test', password: 'person-pass-12' })).status === 200,
    );
  });

  it('an operator reads the invoices without paying them (the server refuses them anyway)', async () => {
    const caio = (await operator(browser)).page;
    await signIn(caio, b.url, 'caio@billing.test', 'person-pass-12', '/app/billing');
    await row(caio, detail).getByText('Paid', { exact: true }).waitFor();
    await caio.getByText('Only administrators pay the invoices.').waitFor();
    expect(await caio.getByRole('button', { name: /^Pay by Pix/ }).count()).to.equal(0);
    const token = (await login(b.url, 'caio@billing.test', 'person-pass-12')).token;
    expect(await client(b.url, token).post('/subscription', { invoiceId })).to.deep.include({ status: 403 });
    await caio.context().close();
  });

  it('speaks Spanish at a phone’s width', async () => {
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/billing`);
    await phone.getByLabel('Correo electrónico').fill(company.admin.email);
    await phone.getByLabel('Contraseña').fill('admin-password-1');
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Suscripción', level: 1 }).waitFor();
    await row(phone, detail).getByText('Pagada').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the subscription in Spanish at a phone’s width');
  });
});
