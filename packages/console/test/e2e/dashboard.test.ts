import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, startTestBackend, type TestBackend } from '../../../backend/test/support/test-backend.js';
import { lastDays } from '../../src/screens/dashboard/figures.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * The dashboard and reports screens in Chromium against the real backend, on a small history
 * seeded through the API (four conversations in two queues, handled by Ana and Bia, two closed
 * with a rating): the figures shown are those the API answers for the same filter, before and
 * after a queue filter; the refresh, then its 429 explained with when to ask again; the panel of
 * now following a new conversation live; the tickets report with a ticket's history and the CSV of
 * the whole filter, the contacts report's CSV; an operator without the dashboard seeing their own
 * figures only and no reports; Spanish at a phone's width; axe on each view.
 */
describe('console: the dashboard and reports screens in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let supportId: number;
  let firstId: number;
  const range = lastDays(30);
  const query = `date_from=${range.from}&date_to=${range.to}`;

  const counter = (p: Page, key: string) => p.getByTestId(`counter-${key}`).locator('dd');
  const expectCounters = async (p: Page, counters: Record<string, number>, keysToCheck: string[]) => {
    for (const key of keysToCheck)
      await counter(p, key)
        .filter({ hasText: new RegExp(`^${counters[key]}$`) })
        .waitFor();
  };

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    browser = await launchChromium();
    page = (await operator(browser, { width: 1400, height: 900 })).page;
    desk = await sandboxDesk(b);
    const { admin, ana, bia } = desk;
    const sales = (await admin.post('/queue', { name: 'Sales', color: '#22aa55', greetingMessage: '' })).body.id as number;
    supportId = (await admin.post('/queue', { name: 'Support', color: '#aa2255', greetingMessage: '' })).body.id as number;
    const take = async (from: string, name: string, who: { id: number }, queueId: number) => {
      const ticket = await desk.inbound(from, 'Olá', { senderName: name });
      const res = await admin.put(`/tickets/${ticket.id}`, { status: 'open', userId: who.id, queueId });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return ticket.id as number;
    };
    firstId = await take('5511911110001', 'Alice', ana, sales);
    expect((await ana.api.post(`/messages/${firstId}`, { body: 'Em que posso ajudar?' })).status).to.equal(200);
    expect((await ana.api.put(`/tickets/${firstId}`, { status: 'closed', rating: 5 })).status).to.equal(200);
    await take('5511911110002', 'Bruno', bia, supportId);
    const third = await take('5521911110003', 'Carla', bia, supportId);
    expect((await bia.api.post(`/messages/${third}`, { body: 'Resolvido.' })).status).to.equal(200);
    expect((await bia.api.put(`/tickets/${third}`, { status: 'closed', rating: 3 })).status).to.equal(200);
    await desk.inbound('5531911110004', 'Bom dia', { senderName: 'Davi' });
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('shows the figures the API answers; a refresh, then a second one refused in words with when to ask again', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/dashboard');
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Update the figures now' }).click();
    await page
      .getByTestId('refresh-note')
      .filter({ hasText: /The figures were computed again/ })
      .waitFor();
    const api = (await desk.admin.get(`/dashboard?${query}`)).body;
    expect(api.counters.tickets).to.equal(4);
    await expectCounters(page, api.counters, ['tickets', 'supportFinished', 'supportHappening', 'supportPending', 'withRating', 'leads']);
    await counter(page, 'avgRating').filter({ hasText: '4' }).waitFor();
    await counter(page, 'npsScore').filter({ hasText: '0' }).waitFor();
    for (const [key, fromMe] of [
      ['messagesReceived', 'false'],
      ['messagesSent', 'true'],
    ] as const) {
      const counted = (await desk.admin.get(`/messages-allMe?fromMe=${fromMe}&dateStart=${range.from}&dateEnd=${range.to}`)).body.count[0].count as number;
      await counter(page, key)
        .filter({ hasText: new RegExp(`^${counted}$`) })
        .waitFor();
    }
    const bia = api.attendants.find((a: { name: string }) => a.name === 'Bia');
    await page
      .getByTestId(`attendant-${bia.id}`)
      .getByRole('cell')
      .nth(1)
      .filter({ hasText: String(bia.tickets) })
      .waitFor();
    // The chart's words and its table say the same as the route.
    const perDay = (await desk.admin.get(`/dashboard/ticketsDay?initialDate=${range.from}&finalDate=${range.to}`)).body;
    await page
      .getByTestId('chart-days')
      .getByText(new RegExp(`^${perDay.count} tickets in all`))
      .waitFor();
    const perUser = (await desk.admin.get(`/dashboard/ticketsUsers?initialDate=${range.from}&finalDate=${range.to}`)).body.data as Array<{
      quantidade: number;
    }>;
    const held = perUser.reduce((sum, u) => sum + u.quantidade, 0);
    await page.getByTestId('chart-users').getByText(`${held} tickets in all; Bia holds the most, 2.`).waitFor();
    await page
      .getByTestId('figures-age')
      .filter({ hasText: /Figures brought up to date/ })
      .waitFor();
    await expectAccessible(page, 'the dashboard');
    await shot(page, 'dashboard', 'admin');

    await page.getByRole('button', { name: 'Update the figures now' }).click();
    const note = page.getByTestId('refresh-note');
    await note.filter({ hasText: /less than 30 seconds ago.*You can ask again in \d+ seconds?, at/ }).waitFor();
    expect(await page.getByRole('button', { name: 'Update the figures now' }).isDisabled()).to.equal(true);
    expect((await desk.admin.post('/dashboard/refresh-views')).status, 'the server refuses it as well').to.equal(429);
  });

  it('the panel of now follows a new conversation live', async () => {
    await page.getByTestId('moments-waiting').getByRole('heading', { name: 'Waiting for an operator: 1' }).waitFor();
    await page.getByRole('heading', { name: 'Bia is attending 1 conversation' }).waitFor();
    await desk.inbound('5541911110005', 'Alguém?', { senderName: 'Eva' });
    await page.getByTestId('moments-waiting').getByRole('heading', { name: 'Waiting for an operator: 2' }).waitFor();
    await page.getByTestId('moments-waiting').getByRole('link', { name: 'Eva' }).waitFor();
  });

  it('a queue filter shows the figures the API answers for that queue', async () => {
    await page.getByLabel('Queue').selectOption({ label: 'Support' });
    const api = (await desk.admin.get(`/dashboard?${query}&queueIds=${supportId}`)).body;
    expect(api.counters.tickets).to.equal(2);
    await expectCounters(page, api.counters, ['tickets', 'supportFinished', 'supportHappening', 'withRating']);
    await counter(page, 'avgRating').filter({ hasText: /^3$/ }).waitFor();
    await page.getByTestId('chart-users').getByText('2 tickets in all; Bia holds the most, 2.').waitFor();
    // A reversed range is said at its field and asks nothing.
    await page.getByLabel('From', { exact: true }).fill('2030-01-10');
    await page.getByRole('alert').filter({ hasText: 'The end comes before the start.' }).waitFor();
    expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
    await page.getByLabel('From', { exact: true }).fill(range.from);
    expect(await page.getByLabel('To', { exact: true }).getAttribute('aria-invalid')).to.equal(null);
  });

  it('the tickets report: the table, a ticket’s history, and the CSV of the whole filter', async () => {
    await page.getByRole('button', { name: 'Manage' }).click();
    await page.getByRole('menuitem', { name: 'Reports' }).click();
    await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
    const api = (await desk.admin.get('/ticketreport/reports')).body;
    await page.getByText(`${api.count} tickets`, { exact: true }).waitFor();
    await page.getByTestId(`report-ticket-${firstId}`).getByText('Alice').waitFor();
    await expectAccessible(page, 'the tickets report');

    await page.getByRole('button', { name: `History of ticket #${firstId}` }).click();
    const dialog = page.getByRole('dialog', { name: `Ticket #${firstId}: Alice` });
    await dialog.getByText('Closed (was Open; rated 5)').waitFor();
    await dialog.getByText('by Ana').first().waitFor();
    await expectAccessible(page, 'a ticket’s history');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.getByRole('checkbox', { name: 'Closed' }).check();
    await page.getByText('2 tickets', { exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    await page.getByText('2 rows exported.').waitFor();
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.startsWith('\uFEFF"Ticket","Contact","Number","Connection","Status","Operator","Opened","Closed","Messages"\r\n')).to.equal(true);
    const lines = csv.trim().split('\r\n').slice(1);
    expect(lines).to.have.length(2);
    expect(lines.find((l) => l.startsWith(`"${firstId}",`))).to.match(/^"\d+","Alice","5511911110001","Sandbox","Closed","Ana",/);
  });

  it('the contacts report with its CSV', async () => {
    await page.getByRole('tab', { name: 'Contacts' }).click();
    const api = (await desk.admin.get('/contacts-report')).body;
    await page.getByText(`${api.count} contacts`, { exact: true }).waitFor();
    await page.getByLabel('Name, e-mail or number').fill('Carla');
    await page.getByText('1 contact', { exact: true }).waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    const csv = readFileSync((await download.path())!, 'utf8');
    expect(csv.split('\r\n').slice(0, 2)).to.deep.equal(['\uFEFF"Name","Number","E-mail","Created"', csv.split('\r\n')[1]]);
    expect(csv.split('\r\n')[1]).to.match(/^"Carla","5521911110003","",/);
    await expectAccessible(page, 'the contacts report');
  });

  it('an operator without the dashboard sees their own figures only, and no reports', async () => {
    const { page: ana } = await operator(browser);
    await signIn(ana, b.url, 'ana@desk.test', 'operator-pass-1', '/app/dashboard');
    await ana.getByText('You see your own figures').waitFor();
    const own = (await desk.ana.api.get(`/dashboard?${query}`)).body;
    expect(own.counters.tickets).to.equal(1);
    await expectCounters(ana, own.counters, ['tickets', 'supportFinished', 'withRating']);
    const anaSent = (await desk.ana.api.get(`/messages-allMe?fromMe=true&dateStart=${range.from}&dateEnd=${range.to}`)).body.count[0].count as number;
    await counter(ana, 'messagesSent')
      .filter({ hasText: new RegExp(`^${anaSent}$`) })
      .waitFor();
    expect(await ana.getByRole('combobox', { name: 'Operator', exact: true }).count(), 'no operator filter').to.equal(0);
    expect(await ana.getByRole('button', { name: 'Update the figures now' }).count()).to.equal(0);
    expect(await ana.locator('[data-testid^="attendant-"]').count()).to.equal(1);
    await expectAccessible(ana, 'an operator’s own dashboard');
    await ana.getByRole('button', { name: 'Manage' }).click();
    expect(await ana.getByRole('menuitem', { name: 'Reports' }).count()).to.equal(0);
    await ana.keyboard.press('Escape');
    await ana.goto(`${b.url}/app/reports`);
    await ana.getByText('The reports are for administrators').waitFor();
    expect((await desk.ana.api.get('/ticketreport/reports')).status).to.equal(403);
  });

  it('speaks Spanish at a phone’s width', async () => {
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/dashboard`);
    await phone.getByLabel('Correo electrónico').fill(ADMIN.email);
    await phone.getByLabel('Contraseña').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Panel', level: 1 }).waitFor();
    await counter(phone, 'tickets').filter({ hasText: /^\d+$/ }).waitFor();
    await phone.getByText('Mostrar como tabla').first().click();
    await phone.getByRole('heading', { name: /Esperando un agente/ }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the dashboard in Spanish at a phone’s width');
    await shot(phone, 'dashboard', 'phone-es');
    await phone.goto(`${b.url}/app/reports`);
    await phone.getByRole('heading', { name: 'Informes', level: 1 }).waitFor();
    await phone.getByRole('tab', { name: 'Atenciones' }).waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await expectAccessible(phone, 'the reports in Spanish at a phone’s width');
  });
});
