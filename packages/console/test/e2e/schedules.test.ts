import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/** `YYYY-MM-DDTHH:mm` of a moment on the company's clock (America/Sao_Paulo, the default `timezone`). */
function onCompanyClock(at: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: 'America/Sao_Paulo',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/**
 * The schedules screen in Chromium against the real backend and a sandbox connection: the month
 * grid moved by the keyboard, a schedule created from a day for the current minute is sent by the
 * server and shows "Sent" live in this browser and a second admin's; a past moment refused at its
 * field with the message kept; the list with a link to the conversation it went through, an edit with an attachment; a delete
 * after asking reaching the other browser; Portuguese at a phone's width; no serious accessibility
 * violation on the month, day and list views. One backend and one browser, the steps in order.
 */
describe('console: the schedules screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
    desk = await sandboxDesk(b);
    const created = await desk.admin.post('/contacts', { name: 'Maria Souza', number: '5511988887777' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('moves through the month by the keyboard and opens a day with Enter', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/schedules');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/schedules');
    await page.getByRole('heading', { name: 'Schedules', level: 1 }).waitFor();
    const grid = page.getByRole('grid');
    await grid.waitFor();
    await expectAccessible(page, 'the month view');
    const today = onCompanyClock(new Date()).slice(0, 10);
    const focusedDay = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.day ?? null);
    await grid.locator(`[data-day="${today}"]`).focus();
    await page.keyboard.press('ArrowDown');
    const down = await focusedDay();
    expect(down).to.not.equal(today);
    await page.keyboard.press('ArrowUp');
    expect(await focusedDay()).to.equal(today);
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Day', pressed: true }).waitFor();
    await page.getByText('Nothing scheduled this day.').waitFor();
    await other.getByRole('button', { name: 'List' }).click();
    await other.getByText('Nothing scheduled yet.').waitFor();
  });

  it('creates a schedule from the day for the current minute: the server sends it and both browsers show it sent, live', async () => {
    await page.getByRole('button', { name: /^New schedule on / }).click();
    const dialog = page.getByRole('dialog', { name: 'New schedule' });
    // The day was prefilled: the date part of the field is today's.
    const today = onCompanyClock(new Date()).slice(0, 10);
    expect((await dialog.getByLabel('Date and time').inputValue()).slice(0, 10)).to.equal(today);
    await dialog.getByLabel('Contact').fill('Maria');
    await dialog.getByRole('button', { name: /Maria Souza/ }).click();
    await dialog.getByLabel('Connection').selectOption({ label: 'Sandbox' });
    await dialog.getByLabel('Message').fill('Oi {{firstName}}, lembrete do calendário');
    await expectAccessible(page, 'the new schedule dialog');
    // The current minute on the company's clock: at most a minute past, so the server sends it at once.
    await dialog.getByLabel('Date and time').fill(onCompanyClock(new Date()));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    const card = page.getByRole('article', { name: /Maria Souza: Sent/ });
    await card.waitFor({ timeout: 20_000 });
    await row(other, 'Maria Souza').getByText('Sent', { exact: true }).waitFor({ timeout: 20_000 });
    await eventually('the sandbox to receive it', () => desk.sent().some((s) => s.content.body === 'Oi Maria, lembrete do calendário'), 10_000);
    await expectAccessible(page, 'the day view');
    await shot(page, 'schedules', 'day-sent');
    // The month shows it on its day, and the day cell names how many it has.
    await page.getByRole('button', { name: 'Month' }).click();
    await page.getByRole('gridcell', { name: /1 schedule$/ }).waitFor();
    await expectAccessible(page, 'the month view with a schedule');
    await shot(page, 'schedules', 'month');
  });

  it('refuses a past moment at its field, keeping the message', async () => {
    await page.getByRole('button', { name: /^New schedule on / }).click();
    const dialog = page.getByRole('dialog', { name: 'New schedule' });
    await dialog.getByLabel('Contact').fill('Maria');
    await dialog.getByRole('button', { name: /Maria Souza/ }).click();
    await dialog.getByLabel('Message').fill('Tarde demais');
    await dialog.getByLabel('Date and time').fill(onCompanyClock(new Date(Date.now() - 2 * 86_400_000)));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'That moment has passed' }).waitFor();
    expect(await dialog.getByLabel('Date and time').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Message').inputValue()).to.equal('Tarde demais');
    await shot(page, 'schedules', 'refused');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it('lists it with a link to its conversation, and deletes it after asking, live in the other browser', async () => {
    await page.getByRole('button', { name: 'List' }).click();
    const mine = row(page, 'Maria Souza');
    await mine.getByRole('link', { name: 'Open the conversation with Maria Souza' }).waitFor();
    await expectAccessible(page, 'the list view');
    // Edited with an attachment: the other browser shows the new text; the file went through the upload route.
    await mine.getByRole('button', { name: /^Edit the schedule to Maria Souza/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the schedule to Maria Souza' });
    await dialog.getByText('Sent', { exact: false }).first().waitFor();
    await dialog.getByLabel('Message').fill('Oi {{firstName}}, com anexo');
    await dialog.getByLabel('Attachment').setInputFiles({ name: 'lembrete.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Maria Souza').getByText('Oi {{firstName}}, com anexo').waitFor();
    const listed = (await desk.admin.get('/schedules')).body.schedules as Array<{ body: string; mediaName: string | null }>;
    expect(listed.map((s) => [s.body, s.mediaName])).to.deep.equal([['Oi {{firstName}}, com anexo', 'lembrete.png']]);
    await mine.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the schedule to Maria Souza?' }).getByRole('button', { name: 'Delete' }).click();
    await row(other, 'Maria Souza').waitFor({ state: 'detached' });
    await page.getByText('Nothing scheduled yet.').waitFor();
  });

  it('speaks Portuguese at a phone’s width', async () => {
    const { page: phone } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/schedules`);
    await phone.getByLabel('E-mail').fill(ADMIN.email);
    await phone.getByLabel('Senha').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Agendamentos', level: 1 }).waitFor();
    await phone.getByRole('grid').waitFor();
    await phone.getByRole('button', { name: 'Novo agendamento' }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the month view in Portuguese at a phone’s width');
    await shot(phone, 'schedules', 'phone-pt-BR');
  });
});
