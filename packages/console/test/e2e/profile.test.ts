import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { asSuper, client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * One's own profile in Chromium against the real backend: reached from the top bar's name; the
 * name and e-mail saved (a taken e-mail refused at its field); a new password that ends the
 * user's session in another browser while this one stays signed in; the theme chosen here applied
 * everywhere and kept after a reload; Spanish at a phone's width. The steps share one backend and one browser.
 */
describe('console: one’s own profile in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let elsewhere: Page;
  let userId: number;

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    const { api } = await asSuper(b);
    const created = await api.post('/users', { name: 'Paula Reis', email: 'paula@desk.test', password: 'paula-pass-1' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    userId = created.body.id as number;
    expect((await api.post('/users', { name: 'Rui Costa', email: 'rui@desk.test', password: 'rui-pass-01' })).status).to.equal(201);
    browser = await launchChromium();
    page = (await operator(browser)).page;
    elsewhere = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('is reached from the name in the top bar, and saves the name; a taken e-mail is refused at its field', async () => {
    await signIn(page, b.url, 'paula@desk.test', 'paula-pass-1');
    await page.getByRole('link', { name: 'Paula Reis' }).click();
    await page.getByRole('heading', { name: 'Your profile', level: 1 }).waitFor();
    await expectAccessible(page, 'the profile');
    await shot(page, 'profile', 'profile');

    const details = page.getByRole('form', { name: 'Your details' });
    await details.getByLabel('E-mail (your sign-in)').fill('rui@desk.test');
    await details.getByRole('button', { name: 'Save' }).click();
    const email = details.getByLabel('E-mail (your sign-in)');
    await page.waitForFunction(() => document.querySelector('[aria-invalid="true"]') !== null);
    expect(await email.getAttribute('aria-invalid')).to.equal('true');
    expect(await email.inputValue(), 'what was typed stays').to.equal('rui@desk.test');

    await email.fill('paula@desk.test');
    await details.getByLabel('Name').fill('Paula R. Reis');
    await details.getByRole('button', { name: 'Save' }).click();
    await details.getByText('Saved.').waitFor();
    const { api } = await asSuper(b);
    expect((await api.get(`/users/${userId}`)).body.name).to.equal('Paula R. Reis');
  });

  it('a new password ends the session in another browser, while this one stays signed in', async () => {
    await signIn(elsewhere, b.url, 'paula@desk.test', 'paula-pass-1');
    const password = page.getByRole('form', { name: 'Password' });
    await password.getByLabel('New password', { exact: true }).fill('short');
    await password.getByRole('button', { name: 'Change the password' }).click();
    await password.getByText('At least 8 characters.').waitFor();
    await password.getByLabel('New password', { exact: true }).fill('paula-new-pass-2');
    await password.getByLabel('Repeat the new password').fill('paula-new-pass-2');
    await password.getByRole('button', { name: 'Change the password' }).click();
    await password.getByText('Password changed. Your other sessions were ended.').waitFor();
    // The other browser is sent to the sign-in page; this one goes on, live.
    await elsewhere.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.getByRole('link', { name: /Paula/ }).waitFor();
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    await page.getByRole('link', { name: 'Inbox' }).first().click();
    await page.getByRole('heading', { name: 'Your profile' }).waitFor({ state: 'detached' });
    expect((await client(b.url, (await login(b.url, 'paula@desk.test', 'paula-new-pass-2')).token).get(`/users/${userId}`)).status).to.equal(200);
    expect((await client(b.url).post('/auth/login', { email: 'paula@desk.test', password: 'paula-pass-1' })).status).to.equal(401);
  });

  it('the theme chosen here applies to the whole console and stays after a reload', async () => {
    await page.getByRole('link', { name: /Paula/ }).click();
    const preferences = page.getByRole('group', { name: 'Preferences in this browser' });
    await preferences.getByLabel('Theme').selectOption('dark');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    await expectAccessible(page, 'the profile in the dark theme');
    await page.reload();
    await preferences.getByLabel('Theme').waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).to.equal('dark');
    expect(await preferences.getByLabel('Theme').inputValue()).to.equal('dark');
  });

  it('speaks Spanish at a phone’s width', async () => {
    const phone = (await operator(browser, { width: 390, height: 800 })).page;
    await signIn(phone, b.url, 'rui@desk.test', 'rui-pass-01', '/app/profile');
    await phone.getByRole('group', { name: 'Preferences in this browser' }).getByLabel('Language').selectOption({ label: 'Español' });
    await phone.getByRole('heading', { name: 'Su perfil', level: 1 }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).to.equal(true);
    await expectAccessible(phone, 'the profile in Spanish at a phone’s width');
    await shot(phone, 'profile', 'phone');
  });
});
