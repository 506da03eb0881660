import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const MARIA = '5511988880001';
/** Pictures of each step, to look at (never the README's). */
const SHOTS = path.join(os.tmpdir(), 'console-screenshots', 'ticket-actions');

/**
 * The conversation's ticket actions and its contact panel in Chromium against the real backend:
 * tags, the contact panel (edit with the server's field errors, block), transfer seen by the
 * second operator, scheduling, closing with a rating, and the phone's layout. The steps share one
 * backend and one browser, in order.
 */
describe(`console: ticket actions and the contact panel in Chromium (skipped when ${CHROMIUM} is absent)`, function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let ticketId: number;
  let previousId: number;
  let contactId: number;
  let support: number;

  const signIn = async (p: Page, email: string, password: string) => {
    await p.goto(`${b.url}/app/`);
    await p.getByLabel('E-mail').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
  };
  const shot = async (p: Page, name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  };
  const header = () => page.locator('.conversation-header');
  const panel = () => page.getByTestId('contact-panel');

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      skipped: no browser at ${CHROMIUM} (install the chromium package to run it)`);
      this.skip();
    }
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    b = await startTestBackend();
    desk = await sandboxDesk(b);
    const queue = await desk.admin.post('/queue', { name: 'Support', color: '#2255aa', greetingMessage: '', userIds: [desk.bia.id] });
    expect(queue.status, JSON.stringify(queue.body)).to.equal(201);
    support = queue.body.id;
    for (const [name, color] of [
      ['VIP', '#aa8800'],
      ['Billing', '#aa2255'],
    ])
      expect((await desk.admin.post('/tags', { name, color })).status).to.equal(201);
    // An earlier conversation with Maria, closed, then the one the operator works on.
    const first = await desk.inbound(MARIA, 'My first question', { senderName: 'Maria Souza' });
    previousId = first.id;
    contactId = first.contactId;
    expect((await desk.admin.put(`/tickets/${previousId}`, { status: 'closed', sendFarewellMessage: false })).status).to.equal(200);
    b.sandbox!.inject(desk.connectionId, { from: MARIA, body: 'Hello again, my order did not arrive', senderName: 'Maria Souza' });
    ticketId = await eventually('a new ticket for the new message', async () => {
      const found = (await desk.admin.get(`/tickets?showAll=true&status=pending&searchParam=${MARIA}`)).body.tickets as Array<{ id: number }>;
      return found.find((x) => x.id !== previousId)?.id;
    });
    // The company records the contact's rating at a close.
    expect((await desk.admin.put('/settings/userRating', { value: 'enabled' })).status).to.equal(200);

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
    });
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signIn(page, ADMIN.email, ADMIN.password);
    await page.goto(`${b.url}/app/tickets/${ticketId}`);
    await page.getByTestId('messages').getByText('Hello again, my order did not arrive').waitFor();
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('button', { name: 'Return to pending' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('sets the tags of the ticket from the popover and shows them as chips in the header', async () => {
    expect(await header().getByTestId('back-to-list').isVisible(), 'no back link on a wide screen').to.equal(false);
    await header().getByRole('button', { name: 'Add tags' }).click();
    const picker = page.getByRole('group', { name: 'Tags' });
    await picker.getByLabel('VIP').check();
    await header().getByTestId('tag-chip').filter({ hasText: 'VIP' }).waitFor();
    await picker.getByLabel('Billing').check();
    await header().getByTestId('tag-chip').filter({ hasText: 'Billing' }).waitFor();
    await picker.getByLabel('VIP').uncheck();
    await header().getByTestId('tag-chip').filter({ hasText: 'VIP' }).waitFor({ state: 'detached' });
    await shot(page, '01-tags');
    await page.getByRole('button', { name: 'Done' }).click();
    const stored = (await desk.admin.get(`/tickets/${ticketId}`)).body.tags as Array<{ name: string }>;
    expect(stored.map((t) => t.name)).to.deep.equal(['Billing']);
    expect(await header().getByTestId('tag-chip').allTextContents()).to.deep.equal(['Billing']);
  });

  it("opens the contact panel with the contact's details and earlier conversations", async () => {
    await header().getByRole('button', { name: 'Contact', exact: true }).click();
    expect(await header().getByRole('button', { name: 'Contact', exact: true }).getAttribute('aria-expanded')).to.equal('true');
    await panel().getByTestId('contact-name').filter({ hasText: 'Maria Souza' }).waitFor();
    await panel().getByText('Sandbox (chat app)').waitFor();
    const previous = panel().getByTestId('previous-tickets').getByRole('link');
    await previous.filter({ hasText: `#${previousId}` }).waitFor();
    expect(await previous.count(), 'the current ticket is not listed').to.equal(1);
    await shot(page, '02-contact-panel');
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Contact');
  });

  it("edits the contact: the server's field error shows beside the field, a valid edit reaches the header", async () => {
    await panel().getByRole('button', { name: 'Edit the contact' }).click();
    const form = panel().getByRole('form', { name: 'Edit the contact' });
    await form.getByLabel('E-mail').fill('not-an-email');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.getByRole('alert').filter({ hasText: 'This is not a valid e-mail address.' }).waitFor();
    expect(await form.getByLabel('E-mail').getAttribute('aria-invalid')).to.equal('true');
    await shot(page, '03-contact-field-error');
    await form.getByLabel('E-mail').fill('maria@example.com');
    await form.getByLabel('Name').fill('Maria S. Souza');
    await form.getByRole('button', { name: 'Add a field' }).click();
    await form.getByLabel('Label of field 1').fill('CPF');
    await form.getByLabel('Value of field 1').fill('123.456.789-09');
    await form.getByRole('button', { name: 'Save' }).click();
    await header().getByRole('heading', { name: 'Maria S. Souza' }).waitFor();
    await panel().getByText('123.456.789-09').waitFor();
    const stored = (await desk.admin.get(`/contacts/${contactId}`)).body;
    expect(stored).to.deep.include({ name: 'Maria S. Souza', email: 'maria@example.com' });
    expect(stored.extraInfo).to.deep.equal([{ name: 'CPF', value: '123.456.789-09' }]);
  });

  it('blocks and unblocks the contact', async () => {
    await panel().getByRole('button', { name: 'Block the contact' }).click();
    await panel().getByTestId('contact-blocked').filter({ hasText: 'Blocked:' }).waitFor();
    expect((await desk.admin.get(`/contacts/${contactId}`)).body.blocked).to.equal(true);
    await panel().getByRole('button', { name: 'Unblock the contact' }).click();
    await panel().getByTestId('contact-blocked').filter({ hasText: 'Not blocked.' }).waitFor();
    expect((await desk.admin.get(`/contacts/${contactId}`)).body.blocked).to.equal(false);
    await panel().getByRole('button', { name: 'Close the contact panel' }).click();
    await panel().waitFor({ state: 'detached' });
  });

  it("shows the server's refusal of a transfer, then transfers to a queue's member, whose browser shows the ticket live", async () => {
    const gone = await desk.admin.post('/queue', { name: 'Temporary', color: '#777777', greetingMessage: '' });
    const bia = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    bia.setDefaultTimeout(15_000);
    const biaPage = await bia.newPage();
    await signIn(biaPage, 'bia@desk.test', 'operator-pass-1');
    await biaPage.getByTestId('tab-open').click();
    expect(await biaPage.getByTestId(`ticket-${ticketId}`).count()).to.equal(0);

    await header().getByRole('button', { name: 'Transfer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer the conversation' });
    await dialog.getByLabel('Queue', { exact: true }).selectOption({ label: 'Temporary' });
    expect((await desk.admin.delete(`/queue/${gone.body.id}`)).status).to.equal(200);
    await dialog.getByRole('button', { name: 'Transfer' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'That queue no longer exists.' }).waitFor();

    await dialog.getByLabel('Queue', { exact: true }).selectOption({ label: 'Support' });
    const people = await dialog.getByLabel('Person', { exact: true }).locator('option').allTextContents();
    expect(people.map((p) => p.replace(' (online)', ''))).to.deep.equal(['Anyone in the queue (waits as pending)', 'Bia']);
    await dialog.getByLabel('Person', { exact: true }).selectOption({ value: String(desk.bia.id) });
    await shot(page, '04-transfer');
    await dialog.getByRole('button', { name: 'Transfer' }).click();
    await dialog.waitFor({ state: 'detached' });
    await header().getByText('With Bia').waitFor();
    await biaPage.getByTestId(`ticket-${ticketId}`).waitFor();
    const stored = (await desk.admin.get(`/tickets/${ticketId}`)).body;
    expect(stored).to.deep.include({ userId: desk.bia.id, queueId: support, status: 'open' });
    await bia.close();
  });

  it("schedules a message to the contact on the company's clock, and shows a refused moment", async () => {
    await header().getByRole('button', { name: 'Schedule' }).click();
    const dialog = page.getByRole('dialog', { name: /Schedule a message to/ });
    await dialog.getByText("On the company's clock (America/Sao_Paulo).").waitFor();
    await dialog.getByLabel('Message').fill('Your order ships tomorrow');
    await dialog.getByLabel('Send at').fill('2020-01-01T10:00');
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'That moment has passed.' }).waitFor();
    await dialog.getByLabel('Send at').fill('2099-03-02T09:30');
    await dialog.getByRole('button', { name: 'Schedule' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Scheduled for' }).waitFor();
    await shot(page, '05-schedule');
    const list = (await desk.admin.get(`/schedules?contactId=${contactId}`)).body.schedules as Array<{ body: string; sendAt: string; chatappId: number }>;
    expect(list).to.have.length(1);
    // 09:30 in São Paulo (UTC-3) is 12:30 UTC.
    expect(list[0]).to.deep.include({ body: 'Your order ships tomorrow', sendAt: '2099-03-02T12:30:00.000Z', chatappId: desk.connectionId });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('at a phone width: a back link to the list, the contact panel as a full-screen sheet', async () => {
    const phone = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
    phone.setDefaultTimeout(15_000);
    const p = await phone.newPage();
    await signIn(p, ADMIN.email, ADMIN.password);
    await p.goto(`${b.url}/app/tickets/${ticketId}`);
    const back = p.getByRole('link', { name: 'Back to the list' });
    await back.waitFor();
    expect(await p.getByTestId('ticket-list').isVisible()).to.equal(false);
    await shot(p, '06-phone-conversation');
    await p.getByRole('button', { name: 'Contact', exact: true }).click();
    const sheet = p.getByTestId('contact-panel');
    await sheet.getByTestId('contact-name').filter({ hasText: 'Maria S. Souza' }).waitFor();
    expect(await sheet.boundingBox()).to.deep.equal({ x: 0, y: 0, width: 390, height: 844 });
    await shot(p, '07-phone-contact-sheet');
    await p.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    expect(await p.evaluate(() => document.activeElement?.id)).to.equal('contact-panel-toggle');
    await back.click();
    await p.getByTestId('ticket-list').waitFor();
    expect(new URL(p.url()).pathname).to.equal('/app/tickets');
    await phone.close();
  });

  it("closes with the contact's rating when the company records ratings", async () => {
    await header().getByRole('button', { name: 'Close', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Close the conversation' });
    await dialog.getByLabel('4 stars').check();
    await shot(page, '08-close-rating');
    await dialog.getByRole('button', { name: 'Close the conversation' }).click();
    await page.getByText('This conversation is closed.').waitFor();
    const log = (await desk.admin.get(`/tickets-log/${ticketId}`)).body as Array<{ type: string; payload: { rating?: number } }>;
    expect(log.filter((e) => e.type === 'closed').map((e) => e.payload.rating)).to.deep.equal([4]);
  });
});
