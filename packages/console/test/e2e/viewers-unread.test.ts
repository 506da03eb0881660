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
const SHOTS = path.join(os.tmpdir(), 'console-screenshots', 'viewers-unread');

/**
 * Two operators in two browsers on one conversation: each sees the other in the header, and the
 * indicator goes when one opens another conversation or closes the browser. Then marking it
 * unread, from the header's button and with `u`: the console goes back to the list with the badge,
 * and the other operator's list shows it live; reopening reads it again.
 */
describe(`console: who else is viewing, and mark unread, in Chromium (skipped when ${CHROMIUM} is absent)`, function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let adminName: string;
  let ticketId: number;
  let otherId: number;
  const contexts: BrowserContext[] = [];

  const signIn = async (email: string, password: string, width = 1280) => {
    const context = await browser.newContext({ locale: 'en-US', viewport: { width, height: 800 } });
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    const p = await context.newPage();
    await p.goto(`${b.url}/app/`);
    await p.getByLabel('E-mail').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    return { context, page: p };
  };
  const shot = async (p: Page, name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  };
  const viewers = (p: Page) => p.locator('.conversation-header').getByTestId('ticket-viewers');
  const open = async (p: Page, id: number, text: string) => {
    await p.getByTestId('tab-pending').click();
    await p.getByTestId(`ticket-${id}`).click();
    await p.getByTestId('messages').getByText(text).waitFor();
  };
  const badge = (p: Page, id: number) => p.getByTestId(`ticket-${id}`).locator('.badge');

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      skipped: no browser at ${CHROMIUM} (install the chromium package to run it)`);
      this.skip();
    }
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    b = await startTestBackend();
    desk = await sandboxDesk(b);
    adminName = (await desk.admin.get('/auth/me')).body.name as string;
    // Two pending conversations in no queue: every operator may see both.
    ticketId = (await desk.inbound('5511944440001', 'Where is my parcel?', { senderName: 'Maria Souza' })).id;
    otherId = (await desk.inbound('5511944440002', 'Do you open on Sundays?', { senderName: 'João Lima' })).id;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
    });
  });
  after(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await b?.close();
  });

  it('two operators on one conversation see each other, never themselves; the indicator goes when one leaves it or closes the browser', async () => {
    const admin = await signIn(ADMIN.email, ADMIN.password);
    await open(admin.page, ticketId, 'Where is my parcel?');
    const ana = await signIn('ana@desk.test', 'operator-pass-1');
    await open(ana.page, ticketId, 'Where is my parcel?');

    await viewers(admin.page).filter({ hasText: 'Ana is also viewing' }).waitFor();
    await viewers(ana.page)
      .filter({ hasText: `${adminName} is also viewing` })
      .waitFor();
    // The avatars (initials, with the name as their title) are for the eye; the status text is what a screen reader reads.
    expect(
      await viewers(admin.page)
        .getByTestId('ticket-viewer')
        .evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('title')])),
    ).to.deep.equal([['A', 'Ana']]);
    const status = admin.page.getByRole('status').filter({ hasText: 'Ana is also viewing' });
    expect(await status.locator('[aria-hidden="true"]').getByTestId('ticket-viewer').count(), 'the initials are hidden from screen readers').to.equal(1);
    expect(await status.locator('.viewer-names').textContent()).to.equal('Ana is also viewing');
    expect(await viewers(ana.page).getByTestId('ticket-viewer').getAttribute('title')).to.equal(adminName);
    await shot(admin.page, '01-also-viewing');

    // Ana opens another conversation: she leaves this one.
    await open(ana.page, otherId, 'Do you open on Sundays?');
    await viewers(admin.page).getByTestId('ticket-viewer').waitFor({ state: 'detached' });
    expect(await viewers(ana.page).getByTestId('ticket-viewer').count(), 'nobody else on the other conversation').to.equal(0);
    // Back on it, then her browser closes: its socket leaves every ticket it viewed.
    await open(ana.page, ticketId, 'Where is my parcel?');
    await viewers(admin.page).filter({ hasText: 'Ana is also viewing' }).waitFor();
    await ana.context.close();
    await viewers(admin.page).getByTestId('ticket-viewer').waitFor({ state: 'detached' });
    await admin.context.close();
  });

  it("marks the conversation unread from the header and with `u`: back to the list with its badge, live in another operator's list", async () => {
    const bia = await signIn('bia@desk.test', 'operator-pass-1');
    await bia.page.getByTestId('tab-pending').click();
    const admin = await signIn(ADMIN.email, ADMIN.password);
    await open(admin.page, ticketId, 'Where is my parcel?');
    // Opening it read it: no badge anywhere.
    await badge(bia.page, ticketId).waitFor({ state: 'detached' });
    expect(await badge(admin.page, ticketId).count()).to.equal(0);

    await admin.page.locator('.conversation-header').getByRole('button', { name: 'Mark unread' }).click();
    await admin.page.waitForURL(/\/app\/tickets$/);
    await admin.page.getByTestId('tab-pending').click();
    await badge(admin.page, ticketId).filter({ hasText: '1 unread' }).waitFor();
    await badge(bia.page, ticketId).filter({ hasText: '1 unread' }).waitFor();
    expect((await desk.admin.get(`/tickets/${ticketId}`)).body.unreadMessages).to.equal(1);
    await shot(bia.page, '02-unread-live');

    // Reopening reads it again, for everyone.
    await open(admin.page, ticketId, 'Where is my parcel?');
    await badge(bia.page, ticketId).waitFor({ state: 'detached' });
    await eventually('the server to count it read', async () => (await desk.admin.get(`/tickets/${ticketId}`)).body.unreadMessages === 0);

    // The shortcut, listed in the `?` sheet, does the same (not while typing in the reply box).
    await admin.page.locator('.conversation-header h2').click();
    await admin.page.keyboard.press('?');
    await admin.page.getByTestId('shortcuts').getByText('Mark the conversation unread and go back to the list (in a conversation)').waitFor();
    await admin.page.keyboard.press('Escape');
    await admin.page.getByTestId('shortcuts').waitFor({ state: 'detached' });
    await admin.page.keyboard.press('u');
    await admin.page.waitForURL(/\/app\/tickets$/);
    await badge(bia.page, ticketId).filter({ hasText: '1 unread' }).waitFor();
    await admin.page.getByTestId('tab-pending').click();
    await badge(admin.page, ticketId).filter({ hasText: '1 unread' }).waitFor();
  });

  it("shows the other viewer at a phone's width", async () => {
    const admin = await signIn(ADMIN.email, ADMIN.password, 390);
    await admin.page.goto(`${b.url}/app/tickets/${otherId}`);
    await admin.page.getByTestId('messages').getByText('Do you open on Sundays?').waitFor();
    const ana = await signIn('ana@desk.test', 'operator-pass-1', 390);
    await ana.page.goto(`${b.url}/app/tickets/${otherId}`);
    await viewers(ana.page)
      .filter({ hasText: `${adminName} is also viewing` })
      .waitFor();
    await viewers(admin.page).filter({ hasText: 'Ana is also viewing' }).waitFor();
    const box = await viewers(ana.page).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390, 'within the screen').to.equal(true);
    await shot(ana.page, '03-phone');
  });
});
