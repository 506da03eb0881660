import { resetLinkIn, type SmtpCatcher, startSmtpCatcher } from '@servicedesk/adapters-http/test-support/smtp-catcher';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { asSuper, client, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot } from './support.js';

/**
 * The forgotten password in Chromium against the real backend, whose e-mails go to a loopback SMTP
 * catcher: "Forgot your password?" on the sign-in page, the e-mail caught, its link opened, the new
 * password typed twice (a mismatch refused first), then signing in with it; the used link and an
 * expired one explained; a server without e-mail says to ask an administrator; Portuguese at a
 * phone's width. The links name CONSOLE_URL; the test opens them on the backend's ephemeral port.
 */
describe('console: forgotten password in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let catcher: SmtpCatcher;
  let b: TestBackend;
  let browser: Browser;
  let page: Page;

  /** The caught link, opened on this backend (the link's own host is CONSOLE_URL's). */
  const onBackend = (link: string) => {
    const url = new URL(link);
    return `${b.url}${url.pathname}${url.search}`;
  };
  const ask = async (p: Page, email: string) => {
    await p.goto(`${b.url}/app/login`);
    await p.getByRole('link', { name: 'Forgot your password?' }).click();
    await p.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor();
    await p.getByLabel('E-mail').fill(email);
    await p.getByRole('button', { name: 'Send the link' }).click();
    await p.getByRole('status').filter({ hasText: email }).waitFor();
  };

  before(async function () {
    prepareConsole(this);
    catcher = await startSmtpCatcher();
    b = await startTestBackend({
      SMTP_HOST: catcher.host,
      SMTP_PORT: String(catcher.port),
      SMTP_FROM: 'Service Desk <no-reply@desk.test>',
      CONSOLE_URL: 'https://console.test',
    });
    const { api } = await asSuper(b);
    for (const [name, email, password] of [
      ['Paula Reis', 'paula@desk.test', 'paula-pass-1'],
      ['Rui Costa', 'rui@desk.test', 'rui-pass-01'],
    ]) {
      const created = await api.post('/users', { name, email, password });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
    }
    browser = await launchChromium();
    page = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await catcher?.close();
  });

  it('e-mails a link from the sign-in page, whose page sets the new password, and then signs in with it', async () => {
    const already = catcher.mails.length;
    await page.goto(`${b.url}/app/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
    await expectAccessible(page, 'the sign-in page with its forgotten-password link');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor();
    await expectAccessible(page, 'asking for a reset link');
    await shot(page, 'forgot-password', 'ask');
    await page.getByLabel('E-mail').fill('Paula@Desk.test');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('status').filter({ hasText: 'is on its way' }).waitFor();
    await expectAccessible(page, 'the link sent');

    const mail = await catcher.next('paula@desk.test', already);
    expect(mail.subject).to.equal('Reset your password');
    const link = resetLinkIn(mail);
    expect(link.startsWith('https://console.test/app/reset-password?token=')).to.equal(true);

    await page.goto(onBackend(link));
    await page.getByRole('heading', { name: 'Choose a new password', level: 1 }).waitFor();
    await page.waitForURL((url) => url.pathname === '/app/reset-password' && !url.search.includes('token'));
    await expectAccessible(page, 'the reset page');
    await shot(page, 'forgot-password', 'reset');
    await page.getByLabel('New password', { exact: true }).fill('paula-new-pass-2');
    await page.getByLabel('Repeat the new password').fill('paula-new-pass-3');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page.getByRole('alert').filter({ hasText: 'The two passwords differ.' }).waitFor();
    expect(await page.getByLabel('Repeat the new password').getAttribute('aria-invalid')).to.equal('true');
    await page.getByLabel('Repeat the new password').fill('paula-new-pass-2');
    await page.getByRole('button', { name: 'Save the password' }).click();
    await page.getByRole('status').filter({ hasText: 'Your password was changed.' }).waitFor();

    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail').fill('paula@desk.test');
    await page.getByLabel('Password').fill('paula-new-pass-2');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    expect((await client(b.url).post('/auth/login', { email: 'paula@desk.test', password: 'paula-pass-1' })).status).to.equal(401);

    // The same link again: used, explained when the password is sent, with the way to ask for another.
    const again = (await operator(browser)).page;
    await again.goto(onBackend(link));
    await again.getByLabel('New password', { exact: true }).fill('paula-new-pass-4');
    await again.getByLabel('Repeat the new password').fill('paula-new-pass-4');
    await again.getByRole('button', { name: 'Save the password' }).click();
    await again.getByRole('alert').filter({ hasText: 'This link is not valid any more' }).waitFor();
    await expectAccessible(again, 'a used link');
    await again.getByRole('link', { name: 'Ask for a new link' }).click();
    await again.getByRole('heading', { name: 'Forgot your password?', level: 1 }).waitFor();
    await again.context().close();
  });

  it('explains an expired link', async () => {
    const p = (await operator(browser)).page;
    const already = catcher.mails.length;
    await ask(p, 'rui@desk.test');
    const link = resetLinkIn(await catcher.next('rui@desk.test', already));
    // Thirty minutes later, as far as the table knows.
    await (b.infra.db.orm.em.fork() as unknown as { execute(sql: string): Promise<unknown> }).execute(
      `update password_resets set expires_at = now() - interval '1 minute'`,
    );
    await p.goto(onBackend(link));
    await p.getByLabel('New password', { exact: true }).fill('rui-new-pass-2');
    await p.getByLabel('Repeat the new password').fill('rui-new-pass-2');
    await p.getByRole('button', { name: 'Save the password' }).click();
    await p.getByRole('alert').filter({ hasText: 'This link expired' }).waitFor();
    await shot(p, 'forgot-password', 'expired');
    expect((await client(b.url).post('/auth/login', { email: 'rui@desk.test', password: 'rui-pass-01' })).status).to.equal(200);
    await p.context().close();
  });

  it('speaks Portuguese at a phone’s width, and the e-mail too; an unknown e-mail gets the same answer and no e-mail', async () => {
    const { context, page: p } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    const already = catcher.mails.length;
    await p.goto(`${b.url}/app/login`);
    await p.getByRole('link', { name: 'Esqueceu sua senha?' }).click();
    await p.getByLabel('E-mail').fill('ninguem@desk.test');
    await p.getByRole('button', { name: 'Enviar o link' }).click();
    await p.getByRole('status').filter({ hasText: 'ninguem@desk.test pertencer a uma conta' }).waitFor();
    await p.goto(`${b.url}/app/forgot-password`);
    await p.getByLabel('E-mail').fill('rui@desk.test');
    await p.getByRole('button', { name: 'Enviar o link' }).click();
    await p.getByRole('status').filter({ hasText: 'rui@desk.test pertencer a uma conta' }).waitFor();
    await expectAccessible(p, 'the link sent, in Portuguese at a phone’s width');
    const mail = await catcher.next('rui@desk.test', already);
    expect(mail.subject).to.equal('Redefina sua senha');
    expect(catcher.mails.slice(already).flatMap((m) => m.to)).to.deep.equal(['rui@desk.test']);
    await p.goto(onBackend(resetLinkIn(mail)));
    await p.getByRole('heading', { name: 'Escolha uma nova senha', level: 1 }).waitFor();
    const width = await p.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'nothing wider than the phone').to.be.at.most(390);
    await shot(p, 'forgot-password', 'reset-pt-BR-phone');
    await context.close();
  });
});

describe('console: forgotten password without e-mail (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('says e-mail is not set up and to ask an administrator', async () => {
    const { context, page } = await operator(browser);
    await page.goto(`${b.url}/app/forgot-password`);
    await page.getByLabel('E-mail').fill('paula@desk.test');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByRole('alert').filter({ hasText: 'E-mail is not set up on this server: ask an administrator to reset your password.' }).waitFor();
    await expectAccessible(page, 'no e-mail set up');
    await context.close();
  });
});
