import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually } from '../../../backend/test/support/eventually.js';
import { ADMIN, asSuper, client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/** A 1×1 PNG: the server sniffs the content, so a logo must be a real image. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

/**
 * The settings screen in Chromium against the real backend, as the platform's super user (an admin
 * of its company) while a second admin's browser follows: a setting of each kind (switch, list,
 * number, text, time zone) saved on change, read back through the API and shown live in the other
 * browser; a number out of range refused at its field; the business hours saved and followed live;
 * a logo refused for its type, then previewed, uploaded and shown; the platform's settings (the
 * sign-up switch, a colour refused then saved, another super user's change live); a connection's message API token
 * generated, copied and used once to send through the sandbox; an operator neither offered the
 * screen nor let in; Spanish at a phone's width; no serious accessibility violation. The steps
 * share one backend and one browser, in order.
 */
describe('console: the settings screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(180_000);
  let b: TestBackend;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let other: Page;
  let rootApi: ReturnType<typeof client>;
  let companyId: number;
  let connectionId: number;

  const BEA = { email: 'bea@settings.test', password: 'admin-password-2' };
  const setting = (p: Page, key: string) => p.getByTestId(`setting-${key}`);
  /** Waits until the control of a setting shows `value` (a switch: its checked state). */
  const shows = (p: Page, key: string, value: string | boolean) =>
    p.waitForFunction(
      ([k, v]) => {
        const control = document.querySelector<HTMLInputElement | HTMLSelectElement>(
          `[data-testid="setting-${k}"] input, [data-testid="setting-${k}"] select, [data-testid="setting-${k}"] textarea`,
        );
        if (!control) return false;
        return typeof v === 'boolean' ? (control as HTMLInputElement).checked === v : control.value === v;
      },
      [key, value] as const,
    );
  const stored = async (key: string) => ((await rootApi.get(`/settings/${key}`)).body as { value: string }).value;

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
    const root = await asSuper(b);
    rootApi = root.api;
    companyId = root.user.companyId;
    const bea = await rootApi.post('/users', { name: 'Bea Second', ...BEA, profile: 'admin' });
    expect(bea.status, JSON.stringify(bea.body)).to.equal(201);
    const connection = await rootApi.post('/chatapp/', { name: 'Desk', provider: 'sandbox' });
    expect(connection.status, JSON.stringify(connection.body)).to.be.oneOf([200, 201]);
    connectionId = connection.body.id;
    await eventually('the sandbox session to connect', async () => (await rootApi.get(`/chatapp/${connectionId}`)).body.status === 'CONNECTED', 15_000);
    browser = await launchChromium();
    ({ context, page } = await operator(browser));
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('an admin reaches the screen from the Manage menu; a second admin opens it too', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password);
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('menuitem', { name: 'Settings' }).click();
    await page.getByRole('heading', { name: 'Settings', level: 1 }).waitFor();
    for (const subject of ['Conversations', 'Messages sent to contacts', 'Business hours', 'Privacy (LGPD)', 'Official message API', 'White label']) {
      await page.getByRole('heading', { name: subject, level: 2 }).waitFor();
    }
    await signIn(other, b.url, BEA.email, BEA.password, '/app/settings');
    await other.getByRole('heading', { name: 'Official message API', level: 2 }).waitFor();
    // The white label is the platform's, for its super users only.
    expect(await other.getByRole('heading', { name: 'White label' }).count()).to.equal(0);
    await expectAccessible(page, 'the settings screen');
    await shot(page, 'settings', 'screen');
  });

  it('saves a setting of each kind on change, stored and shown live in the other admin’s browser', async () => {
    await setting(page, 'userRating').getByRole('switch', { name: 'Ask the contact for a rating' }).check();
    await setting(page, 'userRating').getByText('Saved').waitFor();
    expect(await stored('userRating')).to.equal('enabled');
    await shows(other, 'userRating', true);

    await setting(page, 'closeTicketOnTransfer').getByRole('switch').check();
    await setting(page, 'closeTicketOnTransfer').getByText('Saved').waitFor();
    expect(await stored('closeTicketOnTransfer')).to.equal('true');
    await shows(other, 'closeTicketOnTransfer', true);

    await setting(page, 'scheduleType').getByLabel('Business hours apply').selectOption({ label: 'The company’s hours' });
    await setting(page, 'scheduleType').getByText('Saved').waitFor();
    expect(await stored('scheduleType')).to.equal('company');
    await shows(other, 'scheduleType', 'company');

    const hours = setting(page, 'hoursCloseTicketsAuto').getByLabel('Close idle conversations after (hours)');
    await hours.fill('48');
    await hours.press('Tab');
    await setting(page, 'hoursCloseTicketsAuto').getByText('Saved').waitFor();
    expect(await stored('hoursCloseTicketsAuto')).to.equal('48');
    await shows(other, 'hoursCloseTicketsAuto', '48');

    const transfer = setting(page, 'transferMessage').getByLabel('Transfer message');
    await transfer.fill('You are being transferred to another team.');
    await transfer.press('Tab');
    await setting(page, 'transferMessage').getByText('Saved').waitFor();
    expect(await stored('transferMessage')).to.equal('You are being transferred to another team.');
    await shows(other, 'transferMessage', 'You are being transferred to another team.');

    await setting(page, 'timezone').getByLabel('Time zone').selectOption('Europe/Lisbon');
    await setting(page, 'timezone').getByText('Saved').waitFor();
    expect(await stored('timezone')).to.equal('Europe/Lisbon');
    await shows(other, 'timezone', 'Europe/Lisbon');
    // The business hours are read on the new clock, and apply now that the company's hours are chosen.
    await other.getByText(/in its time zone \(Europe\/Lisbon\).*They apply now/).waitFor();
  });

  it('refuses a number out of range at its field, keeping what was typed and the stored value', async () => {
    const hours = setting(page, 'hoursCloseTicketsAuto').getByLabel('Close idle conversations after (hours)');
    await hours.fill('9000');
    await hours.press('Tab');
    await setting(page, 'hoursCloseTicketsAuto').getByRole('alert').filter({ hasText: 'This value is not allowed here.' }).waitFor();
    expect(await hours.getAttribute('aria-invalid')).to.equal('true');
    expect(await hours.inputValue()).to.equal('9000');
    expect(await stored('hoursCloseTicketsAuto')).to.equal('48');
    await expectAccessible(page, 'a refused setting');
    await shot(page, 'settings', 'refused');
    await hours.fill('72');
    await hours.press('Tab');
    await setting(page, 'hoursCloseTicketsAuto').getByText('Saved').waitFor();
    expect(await hours.getAttribute('aria-invalid')).to.equal(null);
    await shows(other, 'hoursCloseTicketsAuto', '72');
  });

  it('saves the business hours, followed live by the other admin', async () => {
    await page.getByLabel('Monday, First range: from').fill('08:00');
    await page.getByLabel('Monday, First range: to').fill('12:00');
    await page.getByLabel('Monday, Second range: from').fill('13:00');
    await page.getByLabel('Monday, Second range: to').fill('18:00');
    await page.getByRole('button', { name: 'Save the hours' }).click();
    await page.getByText('The hours were saved.').waitFor();
    const company = (await rootApi.get(`/companies/${companyId}`)).body as { schedules: Array<Record<string, string>> };
    expect(company.schedules.find((d) => d.weekdayEn === 'monday')).to.include({
      startTimeA: '08:00',
      endTimeA: '12:00',
      startTimeB: '13:00',
      endTimeB: '18:00',
    });
    await other.waitForFunction(() => document.querySelector<HTMLInputElement>('input[aria-label="Monday, Second range: to"]')?.value === '18:00');

    // An end before its start is refused, and nothing typed is lost.
    await page.getByLabel('Tuesday, First range: from').fill('17:00');
    await page.getByLabel('Tuesday, First range: to').fill('09:00');
    await page.getByRole('button', { name: 'Save the hours' }).click();
    await page.getByRole('alert').filter({ hasText: 'Each range needs a start and an end after it, as HH:MM.' }).waitFor();
    expect(await page.getByLabel('Tuesday, First range: from').inputValue()).to.equal('17:00');
    await page.getByLabel('Tuesday, First range: to').fill('');
    await page.getByLabel('Tuesday, First range: from').fill('');
    await page.getByRole('button', { name: 'Save the hours' }).click();
    await page.getByText('The hours were saved.').waitFor();
  });

  it('refuses a logo that is not an image at its field, then previews, uploads and shows one', async () => {
    const field = page.getByTestId('image-appLogoLight');
    const input = field.getByLabel('Logo on a light background');
    await input.setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image at all') });
    await field.getByRole('button', { name: 'Upload' }).click();
    await field.getByRole('alert').filter({ hasText: 'This file is not an image of an allowed type.' }).waitFor();
    expect(await input.getAttribute('aria-invalid')).to.equal('true');
    expect((await client(b.url).get('/public-settings/appLogoLight')).body).to.equal('');

    await input.setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    const preview = field.getByRole('img', { name: 'Chosen Logo on a light background, not uploaded yet' });
    await preview.waitFor();
    expect(await preview.getAttribute('src')).to.match(/^blob:/);
    await expectAccessible(page, 'a logo previewed before its upload');
    await field.getByRole('button', { name: 'Upload' }).click();
    await field.getByText('Uploaded.').waitFor();
    const current = field.getByRole('img', { name: 'Current Logo on a light background' });
    await current.waitFor();
    const path = (await client(b.url).get('/public-settings/appLogoLight')).body as string;
    expect(path).to.match(/^platform\/appLogoLight-.+\.png$/);
    expect(await current.getAttribute('src')).to.equal(`${b.url}/public/${path}`);
    await page.waitForFunction(() => (document.querySelector<HTMLImageElement>('[data-testid="image-appLogoLight"] img')?.naturalWidth ?? 0) > 0);
    await shot(page, 'settings', 'logo');
  });

  it('a super user turns the public sign-up off and on, and sets the platform’s colour and name; a bad colour is refused at its field', async () => {
    await page.getByRole('heading', { name: 'Platform (every company)', level: 2 }).waitFor();
    const signup = setting(page, 'userCreation').getByRole('switch', { name: 'Anyone may sign up' });
    await shows(page, 'userCreation', true);
    await signup.uncheck();
    await setting(page, 'userCreation').getByText('Saved').waitFor();
    expect((await client(b.url).get('/public-settings/allowSignup')).body).to.equal('disabled');
    await signup.check();
    await setting(page, 'userCreation').getByText('Saved').waitFor();
    expect((await client(b.url).get('/public-settings/allowSignup')).body).to.equal('enabled');

    const colour = setting(page, 'primaryColorLight').getByLabel('Main colour on a light background');
    await colour.fill('blue');
    await colour.press('Enter');
    await setting(page, 'primaryColorLight').getByText('This value is not allowed here.').waitFor();
    expect(await colour.getAttribute('aria-invalid')).to.equal('true');
    expect(await colour.inputValue(), 'what was typed is kept').to.equal('blue');
    expect((await client(b.url).get('/public-settings/primaryColorLight')).body).to.equal('#2563eb');
    await colour.fill('#0f766e');
    await colour.press('Enter');
    await setting(page, 'primaryColorLight').getByText('Saved').waitFor();
    expect((await client(b.url).get('/public-settings/primaryColorLight')).body).to.equal('#0f766e');

    // Another super user's change arrives without a reload.
    expect((await rootApi.put('/setting/appName', { value: 'Desk One' })).status).to.equal(200);
    await shows(page, 'appName', 'Desk One');
    // An admin who is not a super user is offered none of it.
    expect(await other.getByRole('heading', { name: 'Platform (every company)' }).count()).to.equal(0);
    await expectAccessible(page, 'the platform settings');
  });

  it('generates a connection’s message API token, shown once and copied; it sends through the sandbox', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.url });
    const row = page.getByTestId(`api-${connectionId}`);
    await row.getByText('No token').waitFor();
    await row.getByRole('button', { name: 'Generate a token for Desk' }).click();
    const shown = page.getByTestId('new-token');
    await shown.waitFor();
    const token = (await shown.textContent())!;
    expect(token).to.match(/^[0-9a-f]{64}$/);
    await page.getByRole('button', { name: 'Copy the token' }).click();
    await page.getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(token);
    const mask = `${token.slice(0, 4)}••••${token.slice(-4)}`;
    await row.getByText(mask).waitFor();
    // The other admin sees the mask live, never the token.
    await other.getByTestId(`api-${connectionId}`).getByText(mask).waitFor();
    expect(await other.getByText(token).count()).to.equal(0);
    const curl = (await page.getByTestId('curl-example').textContent())!;
    expect(curl).to.include(`curl -X POST '${b.url}/api/messages/send'`).and.include(`Bearer ${token}`);
    await expectAccessible(page, 'a token shown once');
    await shot(page, 'settings', 'token');

    const sent = await fetch(`${b.url}/api/messages/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ number: '5511999990000', body: 'Hello from our system' }),
    });
    expect(sent.status, await sent.clone().text()).to.equal(200);
    expect(await sent.json()).to.include({ status: 'SUCCESS' });
    await eventually('the sandbox to send it', () =>
      b.sandbox!.session(connectionId).sent.some((s) => s.to === '5511999990000' && s.content.body === 'Hello from our system'),
    );
  });

  it('an operator is neither offered the screen nor let in', async () => {
    const created = await rootApi.post('/users', { name: 'Olga', email: 'olga@settings.test', password: 'operator-pass-1' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const olga = (await operator(browser)).page;
    await signIn(olga, b.url, 'olga@settings.test', 'operator-pass-1');
    await olga.getByRole('button', { name: 'Manage' }).click();
    await olga.getByRole('menuitem', { name: 'Tags' }).waitFor();
    expect(await olga.getByRole('menuitem', { name: 'Settings' }).count()).to.equal(0);
    await olga.keyboard.press('Escape');
    await olga.goto(`${b.url}/app/settings`);
    await olga.getByText('Only administrators change the company’s settings.').waitFor();
    expect(await olga.getByRole('switch').count()).to.equal(0);
    // The server refuses an operator's change anyway: the screen only spares the attempt.
    const token = (await login(b.url, 'olga@settings.test', 'operator-pass-1')).token;
    expect((await client(b.url, token).put('/settings/userRating', { value: 'disabled' })).status).to.equal(403);
  });

  it('speaks Spanish, and fits a phone’s width', async () => {
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/settings`);
    await phone.getByLabel('Correo electrónico').fill(BEA.email);
    await phone.getByLabel('Contraseña').fill(BEA.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Configuración', level: 1 }).waitFor();
    await setting(phone, 'userRating').getByRole('switch', { name: 'Pedir una valoración al contacto' }).waitFor();
    await shows(phone, 'userRating', true);
    await phone.getByLabel('Lunes, Segundo intervalo: hasta').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the settings screen in Spanish at a phone’s width');
    await shot(phone, 'settings', 'phone-es');
  });
});
