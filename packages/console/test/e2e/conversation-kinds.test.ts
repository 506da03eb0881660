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
const MARIA = '5511977770001';
const JOAO = '5511977770002';
const LIA = '5511977770003';
/** Pictures of each step, to look at (never the README's). */
const SHOTS = path.join(os.tmpdir(), 'console-screenshots', 'conversation-kinds');

type Message = { id: string; body: string; status: string; fromMe: boolean };

/**
 * The inbox's filters, each kind of message the conversation shows (quoted replies, notes, edits,
 * deletions, a send the channel refused, a reply the server refused), the end of a session whose
 * password changed elsewhere, and the shortcuts, the unread count in the title and the muted
 * alerts, in Chromium against the real backend. The steps share one backend and one browser, in order.
 */
describe(`console: inbox filters, message kinds and the session in Chromium (skipped when ${CHROMIUM} is absent)`, function () {
  this.timeout(150_000);
  let b: TestBackend;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let second: number;
  let vip: number;
  let maria: number;
  let joao: number;
  let lia: number;

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
  /** The ids of the tickets the list shows, once it shows exactly `ids` (the list refetches after each filter). */
  const listShows = (p: Page, ids: number[]) =>
    eventually(`the list to show ${ids.join(', ') || 'nothing'}`, async () => {
      const shown = await p
        .getByTestId('ticket-list')
        .locator('[data-testid^="ticket-"]')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
      return JSON.stringify(shown.sort()) === JSON.stringify(ids.map((id) => `ticket-${id}`).sort());
    });
  const messagesOf = async (ticketId: number) => (await desk.admin.get(`/messages/${ticketId}`)).body.messages as Message[];
  const send = async (ticketId: number, body: Record<string, unknown>) => {
    const res = await desk.admin.post(`/messages/${ticketId}`, body);
    expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201]);
    return eventually(`"${body.body}" to be stored`, async () => (await messagesOf(ticketId)).find((m) => m.body === body.body && m.fromMe));
  };
  const settled = (ticketId: number, body: string, status: string) =>
    eventually(`"${body}" to be ${status}`, async () => (await messagesOf(ticketId)).find((m) => m.body === body && m.status === status));

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      skipped: no browser at ${CHROMIUM} (install the chromium package to run it)`);
      this.skip();
    }
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    b = await startTestBackend();
    desk = await sandboxDesk(b);
    const created = await desk.admin.post('/chatapp/', { name: 'Second line', provider: 'sandbox' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    second = created.body.id;
    await eventually('the second connection to connect', async () => (await desk.admin.get(`/chatapp/${second}`)).body.status === 'CONNECTED');
    const tag = await desk.admin.post('/tags', { name: 'VIP', color: '#aa8800' });
    expect(tag.status, JSON.stringify(tag.body)).to.equal(201);
    vip = tag.body.id;

    // Maria (tagged VIP) and João (on the second line) wait as pending; Lia's conversation is Ana's.
    maria = (await desk.inbound(MARIA, 'Where is my order?', { senderName: 'Maria Souza' })).id;
    expect((await desk.admin.put(`/ticket-tags/${maria}/${vip}`, {})).status).to.equal(200);
    b.sandbox!.inject(second, { from: JOAO, body: 'Hi from the second line', senderName: 'João Lima' });
    joao = await eventually('João’s ticket', async () => (await desk.admin.get(`/tickets?showAll=true&searchParam=${JOAO}`)).body.tickets[0]?.id as number);
    lia = (await desk.inbound(LIA, 'Any news?', { senderName: 'Lia Reis' })).id;
    const assigned = await desk.admin.put(`/tickets/${lia}`, { status: 'open', userId: desk.ana.id });
    expect(assigned.status, JSON.stringify(assigned.body)).to.equal(200);

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
    });
    // Notifications granted, so the alerts' switch shows (not the permission's request).
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 }, permissions: ['notifications'] });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await signIn(page, ADMIN.email, ADMIN.password);
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('filters the lists by tag, connection and person, with the counts, kept across tabs, screens and a reload', async () => {
    await page.getByTestId('tab-pending').click();
    await listShows(page, [maria, joao]);
    await page.getByTestId('filter-tag').selectOption({ label: 'VIP' });
    await listShows(page, [maria]);
    await page.getByTestId('count-pending').filter({ hasText: /^1$/ }).waitFor();
    // Another tab and back: the filter stays, and so does what it selects.
    await page.getByTestId('tab-open').click();
    await listShows(page, []);
    await page.getByTestId('tab-pending').click();
    await listShows(page, [maria]);
    expect(await page.getByTestId('filter-tag').inputValue()).to.equal(String(vip));
    await shot(page, '01-tag-filter');

    await page.getByRole('button', { name: 'Clear the filters' }).click();
    await listShows(page, [maria, joao]);
    await page.getByTestId('filter-connection').selectOption({ label: 'Second line' });
    await listShows(page, [joao]);
    await page.getByTestId('count-pending').filter({ hasText: /^1$/ }).waitFor();

    // Another screen and a reload keep the filters too.
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('link', { name: 'Inbox' }).click();
    await listShows(page, [joao]);
    await page.reload();
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    await listShows(page, [joao]);
    expect(await page.getByTestId('filter-connection').inputValue()).to.equal(String(second));
    await page.getByRole('button', { name: 'Clear the filters' }).click();

    // The person filter: Lia's conversation is Ana's.
    await page.getByTestId('tab-open').click();
    await page.getByTestId('filter-user').selectOption({ label: 'Ana' });
    await listShows(page, [lia]);
    await page.getByTestId('count-open').filter({ hasText: /^1$/ }).waitFor();
    await page.getByTestId('filter-user').selectOption({ label: 'Bia' });
    await listShows(page, []);
    await page.getByTestId('count-open').filter({ hasText: /^0$/ }).waitFor();
    await page.getByRole('button', { name: 'Clear the filters' }).click();
  });

  it('offers a `user` profile no person filter and never asks for every ticket', async () => {
    const other = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    other.setDefaultTimeout(15_000);
    const bia = await other.newPage();
    const asked: string[] = [];
    bia.on('request', (r) => {
      if (/\/tickets(\/count)?\?/.test(r.url())) asked.push(r.url());
    });
    try {
      await signIn(bia, 'bia@desk.test', 'operator-pass-1');
      await bia.getByTestId('tab-pending').click();
      // Bia has no queue: the pending tickets of no queue are hers to take; Ana's open one is not hers to see.
      await listShows(bia, [maria, joao]);
      await bia.getByTestId('tab-open').click();
      await listShows(bia, []);
      await bia.getByTestId('count-open').filter({ hasText: /^0$/ }).waitFor();
      expect(await bia.getByTestId('filter-user').count(), 'no person filter').to.equal(0);
      await bia.getByTestId('filter-tag').selectOption({ label: 'VIP' });
      await bia.getByTestId('tab-pending').click();
      await listShows(bia, [maria]);
      expect(asked.length, 'the lists were asked for').to.be.greaterThan(3);
      expect(
        asked.filter((u) => /showAll/.test(u)),
        'no request asks for every ticket',
      ).to.deep.equal([]);
    } finally {
      await other.close();
    }
  });

  it("folds the filters behind a button at a phone's width", async () => {
    const phone = await browser.newContext({ locale: 'en-US', viewport: { width: 390, height: 844 } });
    phone.setDefaultTimeout(15_000);
    try {
      const p = await phone.newPage();
      await signIn(p, ADMIN.email, ADMIN.password);
      const toggle = p.getByRole('button', { name: 'Filters', exact: true });
      expect(await toggle.getAttribute('aria-expanded')).to.equal('false');
      expect(await p.getByTestId('filter-tag').isVisible(), 'folded').to.equal(false);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).to.equal('true');
      await p.getByTestId('tab-pending').click();
      await p.getByTestId('filter-tag').selectOption({ label: 'VIP' });
      await listShows(p, [maria]);
      await p.getByRole('button', { name: 'Filters (1)' }).waitFor();
      expect(await p.evaluate(() => document.documentElement.scrollWidth), 'nothing wider than the phone').to.be.at.most(390);
      const time = await p.getByTestId(`ticket-${maria}`).locator('time').boundingBox();
      expect(time, "the row's time is shown").not.to.equal(null);
      expect(time!.x + time!.width, "the row's time within the screen").to.be.at.most(390);
      await shot(p, '01-phone-filters');
    } finally {
      await phone.close();
    }
  });

  it('shows a quoted reply (its click brings the quoted message), a note, an edit, a deletion and a channel failure with its reason', async () => {
    const accepted = await desk.admin.put(`/tickets/${maria}`, { status: 'open', userId: desk.adminId });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    const question = (await messagesOf(maria)).find((m) => m.body === 'Where is my order?')!;
    await send(maria, { body: 'It left our warehouse today.', quotedMsgId: question.id });
    await send(maria, { body: 'Call her back tomorrow.', isPrivate: true });
    const code = await send(maria, { body: 'Your pickup code is 123.' });
    await settled(maria, code.body, 'read');
    const edited = await desk.admin.post(`/messages/edit/${code.id}`, { body: 'Your pickup code is 456.' });
    expect(edited.status, JSON.stringify(edited.body)).to.equal(200);
    const wrong = await send(maria, { body: 'Sorry, wrong chat.' });
    await settled(maria, wrong.body, 'read');
    const revoked = await desk.admin.delete(`/messages/${wrong.id}`);
    expect(revoked.status, JSON.stringify(revoked.body)).to.equal(200);
    b.sandbox!.session(desk.connectionId).behaviour = { failNext: { count: 1, reason: 'ERR_SESSION_NOT_CONNECTED' } };
    await send(maria, { body: 'Are you still there?' });
    await settled(maria, 'Are you still there?', 'failed');

    await page.goto(`${b.url}/app/tickets/${maria}`);
    const log = page.getByTestId('messages');
    const bubble = (text: string) => log.getByTestId('message').filter({ hasText: text });
    await bubble('Are you still there?').waitFor();

    const reply = bubble('It left our warehouse today.');
    expect(await reply.getByTestId('quoted').textContent()).to.contain('Where is my order?');
    await reply.getByTestId('quoted').click();
    await eventually('the quoted message to take the focus', () => page.evaluate((id) => document.activeElement?.id === `message-${id}`, question.id));

    const note = bubble('Call her back tomorrow.');
    expect(await note.getAttribute('class')).to.contain('note');
    expect(await note.getAttribute('aria-label')).to.equal('Private note');

    await bubble('Your pickup code is 456.').getByTestId('edited-mark').waitFor();
    expect(await bubble('Your pickup code is 123.').count(), 'the old text is gone').to.equal(0);
    expect(await bubble('Sorry, wrong chat.').getByTestId('deleted-mark').textContent()).to.contain('This message was deleted');

    const failed = bubble('Are you still there?');
    expect(await failed.getAttribute('data-status')).to.equal('failed');
    expect(await failed.getByTestId('failure').textContent()).to.contain('Not sent: The connection was not connected: start it again, then send again.');
    await shot(page, '02-kinds');
    const before = desk.sent().length;
    await failed.getByRole('button', { name: 'Send again' }).click();
    await eventually('the text to reach the contact', () =>
      desk
        .sent()
        .slice(before)
        .some((s) => s.content.body === 'Are you still there?'),
    );
    await eventually(
      'the new copy to be read',
      async () => (await log.getByTestId('message').filter({ hasText: 'Are you still there?' }).and(page.locator('[data-status="read"]')).count()) === 1,
    );
  });

  it('shows a reply the server refused in words, and its retry sends it once the reason is gone', async () => {
    await context.setOffline(true);
    await page.getByTestId('realtime-state').filter({ hasNotText: 'Live' }).waitFor();
    await page.getByTestId('reply-text').fill('One more thing.');
    await page.getByTestId('reply-text').press('Enter');
    await page.getByTestId('pending-reply').filter({ hasText: 'One more thing.' }).waitFor();
    const closed = await desk.admin.put(`/tickets/${maria}`, { status: 'closed', sendFarewellMessage: false });
    expect(closed.status, JSON.stringify(closed.body)).to.equal(200);
    await context.setOffline(false);
    const pending = page.getByTestId('pending-reply').filter({ hasText: 'One more thing.' });
    await pending.getByRole('alert').filter({ hasText: 'Not sent: The conversation is closed.' }).waitFor();
    expect(await pending.textContent(), 'no code shown').not.to.contain('ERR_');
    await shot(page, '03-refused');

    const reopened = await desk.admin.put(`/tickets/${maria}`, { status: 'open', userId: desk.adminId });
    expect(reopened.status, JSON.stringify(reopened.body)).to.equal(200);
    const before = desk.sent().length;
    await pending.getByRole('button', { name: 'Retry' }).click();
    await pending.waitFor({ state: 'detached' });
    await eventually('the reply to reach the contact', () =>
      desk
        .sent()
        .slice(before)
        .some((s) => s.content.body === 'One more thing.'),
    );
    expect((await messagesOf(maria)).filter((m) => m.body === 'One more thing.').length, 'stored once').to.equal(1);
  });

  it("ends the session of a user whose password changed elsewhere on each of the user's tabs and browsers", async () => {
    const first = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    const elsewhere = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    try {
      first.setDefaultTimeout(15_000);
      elsewhere.setDefaultTimeout(15_000);
      const tab1 = await first.newPage();
      await signIn(tab1, 'ana@desk.test', 'operator-pass-1');
      // A second tab of the same browser takes the session from the refresh cookie.
      const tab2 = await first.newPage();
      await tab2.goto(`${b.url}/app/tickets`);
      // A loaded machine (two cores, several browsers) can take long here: a wait, not a timing check.
      await tab2.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor({ timeout: 30_000 });
      const other = await elsewhere.newPage();
      await signIn(other, 'ana@desk.test', 'operator-pass-1');

      const changed = await desk.admin.put(`/users/${desk.ana.id}`, { password: 'operator-pass-2' });
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      for (const p of [tab1, tab2, other]) await p.getByRole('button', { name: 'Sign in' }).waitFor();
      expect((await desk.ana.api.get('/auth/me')).status, 'the old token is refused').to.equal(401);

      await tab1.getByLabel('E-mail').fill('ana@desk.test');
      await tab1.getByLabel('Password').fill('operator-pass-2');
      await tab1.getByRole('button', { name: 'Sign in' }).click();
      await tab1.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    } finally {
      await first.close();
      await elsewhere.close();
    }
  });

  it('lists every shortcut on the `?` sheet from any screen, and `/` opens the search from there', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.locator('body').press('?');
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    const keys = await sheet.getByTestId('shortcuts').locator('dt').allTextContents();
    expect(keys).to.include.members(['Alt+↓', 'Alt+↑', 'r', '/', 'Enter', 'Shift+Enter', 'Esc', '?']);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    await page.locator('body').press('/');
    await page.getByRole('searchbox', { name: 'Search tickets' }).waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).to.equal('search');
    expect(await page.getByTestId('tab-search').getAttribute('data-state')).to.equal('active');
    // On the inbox, with a conversation open, `/` goes to the search and leaves the conversation open.
    await page.getByTestId('tab-open').click();
    await page.getByTestId(`ticket-${maria}`).click();
    await page.getByTestId('messages').getByText('One more thing.').waitFor();
    await page.getByTestId('messages').press('/');
    await page.getByRole('searchbox', { name: 'Search tickets' }).waitFor();
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).to.equal('search');
    expect(new URL(page.url()).pathname).to.equal(`/app/tickets/${maria}`);
  });

  it('counts the waiting conversations with unread messages in the tab title, and keeps the alerts muted per user', async () => {
    const unread = async () => Number(/^\((\d+)\)/.exec(await page.title())?.[1] ?? 0);
    const was = await unread();
    b.sandbox!.inject(desk.connectionId, { from: '5511977770009', body: 'A new question', senderName: 'Rui' });
    await eventually('the title to count the new conversation', async () => (await unread()) === was + 1);

    await page.getByRole('button', { name: 'Alerts on' }).click();
    await page.getByRole('button', { name: 'Alerts off' }).waitFor();
    await page.reload();
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    await page.getByRole('button', { name: 'Alerts off' }).waitFor();
    expect(await page.evaluate((id) => localStorage.getItem(`servicedesk.muted.${id}`), desk.adminId)).to.equal('1');
  });
});
