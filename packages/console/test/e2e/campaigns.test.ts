import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * The contact lists and campaigns screens in Chromium against the real backend: a list created
 * with a number and a CSV uploaded (its bad row listed), seen live by a second admin; a campaign of
 * 20 sandbox recipients created from the screen (a refusal at its field first), an attachment
 * uploaded and removed, started, its
 * progress followed live to the end and its report exported; an operator kept out; the pacing's
 * estimate and settings saved in Spanish at a phone's width; a sending campaign paused and cancelled.
 */
describe('console: the contact lists and campaigns screens in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'campaigns-e2e-'));

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
    desk = await sandboxDesk(b);
    // No pacing, so twenty sends take seconds.
    const paced = await desk.admin.post('/campaign-settings', {
      settings: {
        messageInterval: 0,
        messageIntervalMax: 0,
        longerIntervalAfter: 0,
        startHour: '00:00',
        endHour: '24:00',
        sabado: true,
        domingo: true,
        capHourly: 0,
        capDaily: 0,
      },
    });
    expect(paced.status, JSON.stringify(paced.body)).to.be.oneOf([200, 201]);
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('creates a list with a number and an uploaded CSV whose bad row is listed; a second admin sees it live', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/contact-lists');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/contact-lists');
    await page.getByText('No contact lists yet.').waitFor();
    await expectAccessible(page, 'the empty contact lists');
    await page.getByRole('button', { name: 'New list' }).click();
    let dialog = page.getByRole('dialog', { name: 'New contact list' });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The name must have 1 to 255 characters.' }).waitFor();
    expect(await dialog.getByLabel('Name').getAttribute('aria-invalid')).to.equal('true');
    await dialog.getByLabel('Name').fill('Clientes');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Clientes', level: 1 }).waitFor();
    await other.getByRole('rowheader', { name: 'Clientes' }).waitFor();

    await page.getByRole('button', { name: 'Add a number' }).click();
    dialog = page.getByRole('dialog', { name: 'Add a number' });
    await dialog.getByLabel('Name').fill('Ana Lima');
    await dialog.getByLabel('Number').fill('5511970000100');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('rowheader', { name: 'Ana Lima' }).waitFor();
    await page.getByRole('button', { name: 'Add a number' }).click();
    dialog = page.getByRole('dialog', { name: 'Add a number' });
    await dialog.getByLabel('Name').fill('Ana again');
    await dialog.getByLabel('Number').fill('5511970000100');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The list already has this number.' }).waitFor();
    expect(await dialog.getByLabel('Number').getAttribute('aria-invalid')).to.equal('true');
    await expectAccessible(page, 'a refused number');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Edit Ana Lima' }).click();
    dialog = page.getByRole('dialog', { name: 'Edit Ana Lima' });
    await dialog.getByLabel('E-mail').fill('ana@example.com');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'ana@example.com' }).waitFor();

    const csv = path.join(dir, 'list.csv');
    const rows = Array.from({ length: 19 }, (_, i) => `Pessoa ${i + 1},55119700001${String(i + 1).padStart(2, '0')}`);
    writeFileSync(csv, ['name,number', ...rows, 'Sem número,12'].join('\n'));
    await page.getByRole('button', { name: 'Upload a file' }).click();
    dialog = page.getByRole('dialog', { name: 'Upload numbers to Clientes' });
    await dialog.getByLabel('File').setInputFiles(csv);
    await dialog.getByRole('button', { name: 'Upload' }).click();
    await dialog.getByText('Done: 19 added, 0 merged with numbers already listed, 1 refused.').waitFor();
    await dialog.getByRole('table', { name: 'Refused rows' }).getByRole('rowheader', { name: '21' }).waitFor();
    await expectAccessible(page, 'the upload report');
    await shot(page, 'campaigns', 'upload');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByText('20 numbers').waitFor();
    await page.getByPlaceholder('Search by name or number').fill('Pessoa 1');
    await page.getByText('11 numbers').waitFor();
    await page.getByPlaceholder('Search by name or number').fill('');
  });

  it('creates a campaign from the screen (a refusal at its field first), starts it and follows it live to its report', async () => {
    await page.goto(`${b.url}/app/campaigns`);
    await other.goto(`${b.url}/app/campaigns`);
    await page.getByText('No campaigns yet.').waitFor();
    await page.getByRole('button', { name: 'New campaign' }).click();
    const dialog = page.getByRole('dialog', { name: 'New campaign' });
    await dialog.getByLabel('Name').fill('Promo');
    await dialog.getByLabel('Message 1').fill('Oi {nome}!');
    await dialog.getByLabel('Send at (company time', { exact: false }).fill('2020-01-01T10:00');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Choose a contact list or a tag to send to.' }).waitFor();
    expect(await dialog.getByLabel('Contact list').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Message 1').inputValue()).to.equal('Oi {nome}!');
    await expectAccessible(page, 'a refused campaign');
    await dialog.getByLabel('Contact list').selectOption({ label: 'Clientes' });
    await dialog.getByLabel('Connection').selectOption({ label: 'Sandbox' });
    await dialog.getByLabel('Send at (company time', { exact: false }).fill('');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Promo', level: 1 }).waitFor();
    await other.getByRole('rowheader', { name: 'Promo' }).waitFor();
    await other.getByRole('button', { name: 'Open Promo' }).click();

    const png = path.join(dir, 'promo.png');
    writeFileSync(png, Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64'));
    await page.getByLabel('Attachment').setInputFiles(png);
    await page.getByText('promo.png').waitFor();
    expect((await desk.admin.get('/campaigns')).body.records[0].mediaName).to.equal('promo.png');
    await page.getByRole('button', { name: 'Remove the attachment' }).click();
    await page.getByText('No attachment.').waitFor();
    await page.getByRole('button', { name: 'Start now' }).click();
    await other
      .getByTestId('campaign-status')
      .filter({ hasText: /Sending|Finished/ })
      .waitFor();
    await page.getByTestId('campaign-status').filter({ hasText: 'Finished' }).waitFor({ timeout: 30_000 });
    await other.getByTestId('campaign-progress').filter({ hasText: '20 of 20 recipients done' }).waitFor();
    await eventually('every send in the sandbox', async () => desk.sent().length >= 20);
    await page.getByRole('table', { name: 'Recipients' }).getByRole('rowheader', { name: 'Ana Lima' }).waitFor();
    await expectAccessible(page, 'a finished campaign');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const exported = readFileSync((await download.path())!, 'utf8');
    expect(exported.split('\n').filter(Boolean)).to.have.length(21);
    expect(exported).to.contain('"Ana Lima","5511970000100"');
    await shot(page, 'campaigns', 'finished');
  });

  it('tells an operator the screens are for administrators, fetching nothing', async () => {
    const ana = (await operator(browser)).page;
    const asked: string[] = [];
    ana.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await signIn(ana, b.url, 'ana@desk.test', 'operator-pass-1', '/app/campaigns');
    await ana.getByText('Campaigns are for administrators.').waitFor();
    await ana.goto(`${b.url}/app/contact-lists`);
    await ana.getByText('Contact lists are for administrators.').waitFor();
    // The plan is read by the navigation, for everyone (it offers only the plan's screens); these screens read nothing.
    expect(asked.filter((p) => /campaign|contact-list/.test(p) && !p.startsWith('/app/'))).to.deep.equal([]);
    await ana.context().close();
  });

  it('estimates the pacing and refuses a bad value at its field, in Spanish at a phone’s width', async () => {
    const phone = (await operator(browser, { locale: 'es', width: 390, height: 844 })).page;
    await phone.goto(`${b.url}/app/campaigns`);
    await phone.getByLabel('Correo electrónico').fill(ADMIN.email);
    await phone.getByLabel('Contraseña').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Campañas', level: 1 }).waitFor();
    await phone.getByRole('button', { name: 'Ritmo' }).click();
    await phone.getByLabel('Destinatarios').fill('20');
    await phone.getByTestId('estimate').filter({ hasText: 'Empezando ahora' }).waitFor();
    await phone.getByLabel('Intervalo más corto entre mensajes (segundos)').fill('-1');
    await phone.getByLabel('Intervalo más corto entre mensajes (segundos)').press('Enter');
    await phone
      .getByRole('alert')
      .filter({ hasText: /no está permitido|Este valor/ })
      .waitFor();
    await expectAccessible(phone, 'the pacing in Spanish at a phone’s width');
    await phone.getByLabel('Intervalo más corto entre mensajes (segundos)').fill('5');
    await phone.getByLabel('Intervalo más largo entre mensajes (segundos)').fill('9');
    await phone.getByLabel('Intervalo más largo entre mensajes (segundos)').press('Enter');
    await phone.getByRole('status').filter({ hasText: 'Guardado.' }).waitFor();
    await phone.getByLabel('Enviar los sábados').uncheck();
    const stored = async () =>
      Object.fromEntries(((await desk.admin.get('/campaign-settings')).body as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]));
    await eventually('the pacing saved', async () => {
      const s = await stored();
      return s.messageInterval === '5' && s.messageIntervalMax === '9' && s.sabado === 'false';
    });
    await shot(phone, 'campaigns', 'phone');
    expect(await phone.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling').to.be.at.most(390);
  });
  it('pauses a sending campaign, cancels it after asking, and offers to run it again', async () => {
    // The gaps are 5–9 s now: the campaign is still sending when it is paused.
    const listId = ((await desk.admin.get('/contact-lists/list')).body as Array<{ id: number; name: string }>).find((l) => l.name === 'Clientes')!.id;
    const created = await desk.admin.post('/campaigns', { name: 'Lenta', message1: 'Oi {nome}', contactListId: listId, chatappId: desk.connectionId });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect((await desk.admin.post(`/campaigns/${created.body.id}/restart`, {})).status).to.equal(204);
    await page.getByRole('button', { name: 'All campaigns' }).click();
    await page.getByRole('button', { name: 'Open Lenta' }).click();
    await page.getByTestId('campaign-status').filter({ hasText: 'Sending' }).waitFor();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('campaign-status').filter({ hasText: 'Paused' }).waitFor();
    await page.getByRole('button', { name: 'Cancel the campaign' }).click();
    await page.getByRole('alertdialog', { name: 'Cancel the campaign Lenta?' }).getByRole('button', { name: 'Cancel the campaign' }).click();
    await page.getByTestId('campaign-status').filter({ hasText: 'Cancelled' }).waitFor();
    await page.getByRole('button', { name: 'Run again' }).waitFor();
    expect((await desk.admin.get(`/campaigns/${created.body.id}`)).body.status).to.equal('CANCELADA');
  });
});
