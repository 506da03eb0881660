import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, asSuper, client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot } from './support.js';

/** A 1×1 PNG: the platform's logo. */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/**
 * The public sign-up in Chromium against the real backend, whose CNPJ registry is a fake one on
 * loopback (BrasilAPI's shape: one known CNPJ, every other one unknown): sign-up closed by the
 * platform (no link on the sign-in page, `/signup` says so); opened by a super user through the
 * API: the link, the public plans only, a CNPJ lookup (an invalid one refused at its field, an
 * unknown one said, a known one filling the company's name), a taken e-mail refused at its field
 * with everything typed kept, then the company created and its admin landing signed in, who reads
 * the backend's version in the profile; the white-label logo on both pages; Portuguese at a phone's width.
 */
describe('console: sign-up in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let registry: Server;
  let b: TestBackend;
  let browser: Browser;
  let page: Page;

  /** Sets whether the platform takes sign-ups, as its super user does. */
  const signupOpen = async (open: boolean) => {
    const { api } = await asSuper(b);
    const res = await api.put('/setting/userCreation', { value: open ? 'enabled' : 'disabled' });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  };
  /** The sign-in page once it has read whether sign-up is open. */
  const openSignIn = async (p: Page) => {
    const read = p.waitForResponse((r) => r.url().endsWith('/public-settings/userCreation'));
    await p.goto(`${b.url}/app/login`);
    await read;
    await p.getByRole('button', { name: 'Sign in' }).waitFor();
  };

  before(async function () {
    prepareConsole(this);
    registry = createServer((req, res) => {
      if (req.url?.endsWith('/11222333000181')) {
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ razao_social: 'ACME ATENDIMENTO LTDA', nome_fantasia: 'Acme', descricao_situacao_cadastral: 'ATIVA', email: null }));
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    b = await startTestBackend({ CNPJ_REGISTRY_URL: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/cnpj` });
    const { api } = await asSuper(b);
    const plan = (body: Record<string, unknown>) => api.post('/plans', body).then((r) => expect(r.status, JSON.stringify(r.body)).to.equal(201));
    await plan({
      name: 'Profissional',
      users: 5,
      connections: 2,
      queues: 3,
      amount: '199.90',
      recurrence: 'MENSAL',
      trial: true,
      trialDays: 7,
      isPublic: true,
    });
    await plan({ name: 'Interno', users: 50, connections: 10, queues: 10, amount: '0', isPublic: false });
    const logo = new FormData();
    logo.set('mode', 'Light');
    logo.set('file', new Blob([PNG], { type: 'image/png' }), 'logo.png');
    expect((await api.post('/settings-whitelabel/logo', logo)).status).to.equal(200);
    expect((await api.put('/setting/appName', { value: 'Acme Desk' })).status).to.equal(200);
    browser = await launchChromium();
    page = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    if (registry) await new Promise((resolve) => registry.close(resolve));
  });

  it('closed: the sign-in page offers no sign-up, and /signup says it is closed', async () => {
    await signupOpen(false);
    await openSignIn(page);
    const logo = page.getByRole('img', { name: 'Acme Desk' });
    await page.waitForFunction(() => (document.querySelector('img.auth-logo') as HTMLImageElement | null)?.naturalWidth === 1);
    expect(await logo.count(), 'the platform’s logo, named by the platform').to.equal(1);
    expect(await page.getByRole('link', { name: 'Forgot your password?' }).count()).to.equal(1);
    expect(await page.getByRole('link', { name: 'Create an account' }).count()).to.equal(0);

    await page.goto(`${b.url}/app/signup`);
    await page.getByRole('heading', { name: 'Sign-up is closed', level: 1 }).waitFor();
    await page.getByRole('status').filter({ hasText: 'does not take new sign-ups' }).waitFor();
    await expectAccessible(page, 'sign-up closed');
    await page.getByRole('link', { name: 'Back to sign in' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
  });

  it('open: a company signs up from the sign-in page (CNPJ lookup, a refusal at its field) and lands signed in', async () => {
    await signupOpen(true);
    await openSignIn(page);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByRole('heading', { name: 'Create an account', level: 1 }).waitFor();
    await page.getByRole('img', { name: 'Acme Desk' }).waitFor();

    // The public plans only, with their limits, price and trial.
    const plans = page.getByRole('group', { name: 'Plan' });
    await plans.getByRole('radio').nth(1).waitFor();
    expect(await plans.getByRole('radio').count()).to.equal(2);
    expect(await plans.getByText('Interno').count(), 'a private plan is not offered').to.equal(0);
    const pro = plans.locator('label', { hasText: 'Profissional' });
    expect(await pro.textContent()).to.match(/R\$\s?199\.90 per month[\s\S]*5 users · 2 connections · 3 queues[\s\S]*7-day free trial/);
    await pro.getByRole('radio').check();

    // The CNPJ: a wrong check digit refused at its field, an unknown one said, a known one filling the name.
    const documentInput = page.getByLabel('CPF or CNPJ (optional)');
    const lookUp = page.getByRole('button', { name: 'Look up the CNPJ' });
    await documentInput.fill('11.222.333/0001-82');
    await lookUp.click();
    await page.getByRole('alert').filter({ hasText: 'This CNPJ is not valid' }).waitFor();
    expect(await documentInput.getAttribute('aria-invalid')).to.equal('true');
    await documentInput.fill('11.444.777/0001-61');
    await lookUp.click();
    await page.getByRole('status').filter({ hasText: 'This CNPJ is not in the registry' }).waitFor();
    expect(await documentInput.getAttribute('aria-invalid')).to.equal(null);
    await documentInput.fill('11.222.333/0001-81');
    await lookUp.click();
    await page.getByRole('status').filter({ hasText: 'Found: ACME ATENDIMENTO LTDA (ATIVA)' }).waitFor();
    expect(await page.getByLabel('Company name').inputValue()).to.equal('Acme');

    await page.getByLabel('Phone (optional)').fill('+55 11 98765-4321');
    await page.getByLabel('Your name').fill('Ana Souza');
    await page.getByLabel('E-mail', { exact: true }).fill(ADMIN.email);
    await page.getByLabel('Password', { exact: true }).fill('ana-password-1');
    await page.getByLabel('Repeat the password').fill('ana-password-2');
    const submit = page.getByRole('button', { name: 'Create the account' });
    await submit.click();
    await page.getByRole('alert').filter({ hasText: 'The two passwords differ.' }).waitFor();
    await page.getByLabel('Repeat the password').fill('ana-password-1');
    // A taken e-mail: refused by the server at its field, everything typed kept.
    await submit.click();
    await page.getByRole('alert').filter({ hasText: 'This e-mail already has an account' }).waitFor();
    const email = page.getByLabel('E-mail', { exact: true });
    expect(await email.getAttribute('aria-invalid')).to.equal('true');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).to.equal('email');
    expect(await page.getByLabel('Company name').inputValue()).to.equal('Acme');
    expect(await page.getByLabel('Password', { exact: true }).inputValue()).to.equal('ana-password-1');
    expect(await page.getByLabel('Repeat the password').inputValue()).to.equal('ana-password-1');
    expect(await pro.getByRole('radio').isChecked()).to.equal(true);
    await expectAccessible(page, 'the sign-up form with a refusal');
    await shot(page, 'signup', 'form');

    await email.fill('ana@acme.test');
    await submit.click();
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    await page.waitForURL((url) => url.pathname === '/app/tickets');

    const { api } = await asSuper(b);
    const company = ((await api.get('/companies/list')).body as Array<Record<string, unknown>>).find((c) => c.name === 'Acme');
    expect(company, 'the company created').to.include({ document: '11222333000181', phone: '+55 11 98765-4321', email: 'ana@acme.test' });
    expect((company!.plan as { name: string }).name).to.equal('Profissional');
    expect(company!.dueDate).to.match(new RegExp(`^${new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10)}`));
    const me = await login(b.url, 'ana@acme.test', 'ana-password-1');
    expect(me.user).to.include({ name: 'Ana Souza', profile: 'admin', companyId: company!.id });

    // The profile's About line: the backend's version.
    const version = (await client(b.url).get('/version')).body as { version: string };
    await page.getByRole('link', { name: 'Ana Souza' }).click();
    await page.getByRole('heading', { name: 'About', level: 2 }).waitFor();
    await page.getByText(`Server version ${version.version}`).waitFor();
  });

  it('speaks Portuguese at a phone’s width', async () => {
    const { context, page: p } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await p.goto(`${b.url}/app/login`);
    await p.getByRole('link', { name: 'Criar uma conta' }).click();
    await p.getByRole('heading', { name: 'Criar uma conta', level: 1 }).waitFor();
    const pro = p.getByRole('group', { name: 'Plano' }).locator('label', { hasText: 'Profissional' });
    expect(await pro.textContent()).to.match(/R\$\s?199,90 por mês[\s\S]*5 usuários · 2 conexões · 3 filas[\s\S]*7 dias de teste grátis/);
    await p.getByLabel('Senha', { exact: true }).fill('curta');
    await p.getByRole('button', { name: 'Criar a conta' }).click();
    await p.getByRole('alert').filter({ hasText: 'Pelo menos 8 caracteres.' }).waitFor();
    expect(await p.getByLabel('Senha', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
    expect(await p.getByLabel('Nome da empresa').getAttribute('aria-invalid')).to.equal('true');
    const width = await p.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'nothing wider than the phone').to.be.at.most(390);
    await expectAccessible(p, 'the sign-up form in Portuguese at a phone’s width');
    await shot(p, 'signup', 'pt-BR-phone');
    await context.close();
  });
});
