import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { eventually } from '../../../backend/test/support/eventually.js';
import { client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
/** `CONSOLE_SCREENSHOTS=docs/console` writes the README's pictures; otherwise they go to a temp folder. */
const SHOTS = process.env.CONSOLE_SCREENSHOTS ? path.resolve(ROOT, process.env.CONSOLE_SCREENSHOTS) : path.join(os.tmpdir(), 'console-screenshots');
const ADMIN_EMAIL = 'root@example.com';
const NEW_PASSWORD = 'a-long-new-password';

/**
 * The operator's day in real Chromium against the real backend serving the built console. The
 * steps of one story share the backend and the browser, in order.
 */
describe(`console: the operator's day in Chromium (skipped when ${CHROMIUM} is absent)`, function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let admin: BrowserContext;
  let page: Page;
  let connectionId: number;
  let ticketId: number;

  const shot = async (p: Page, name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    await p.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  };
  const apiAsAdmin = async () => client(b.url, (await login(b.url, ADMIN_EMAIL, NEW_PASSWORD)).token);

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      skipped: no browser at ${CHROMIUM} (install the chromium package to run it)`);
      this.skip();
    }
    // What `npm start` serves: the console built by the same script.
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    // Without ADMIN_PASSWORD the seeded admin has the built-in password, to be replaced at first access.
    b = await startTestBackend({ ADMIN_PASSWORD: undefined as unknown as string });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-dev-shm-usage'],
    });
    admin = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    admin.setDefaultTimeout(15_000);
    page = await admin.newPage();
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('lands a browser opening / on the console, while GET / with hub.* stays the webhook verification', async () => {
    const plain = await fetch(`${b.url}/`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(plain.status).to.equal(302);
    expect(plain.headers.get('location')).to.equal('/app/');
    const hub = await fetch(`${b.url}/?hub.mode=subscribe&hub.verify_token=wrong&hub.challenge=42`, { redirect: 'manual', headers: { accept: 'text/html' } });
    expect(hub.status).to.equal(403);
    const asset = (await (await fetch(`${b.url}/app/`)).text()).match(/\/app\/assets\/[^"]+\.js/)![0];
    const res = await fetch(`${b.url}${asset}`, { headers: { 'accept-encoding': 'br' } });
    expect(res.headers.get('cache-control')).to.include('immutable');
    expect(res.headers.get('content-encoding')).to.equal('br');
    const route = await fetch(`${b.url}/app/tickets/42`);
    expect(route.status).to.equal(200);
    expect(route.headers.get('content-type')).to.include('text/html');
  });

  it('first access: signs in, replaces the built-in password and reaches the inbox', async () => {
    await page.goto(`${b.url}/`);
    await page.getByLabel('E-mail').fill(ADMIN_EMAIL);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'Wrong e-mail or password.' }).waitFor();
    await page.getByLabel('Password').fill('123456');
    await shot(page, '01-sign-in');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Repeat the new password').fill(NEW_PASSWORD);
    await shot(page, '02-first-access');
    await page.getByRole('button', { name: 'Save and continue' }).click();
    await page.getByRole('heading', { name: 'Conversations' }).waitFor();
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    expect(new URL(page.url()).pathname).to.equal('/app/tickets');
  });

  it('creates a sandbox connection and shows its session connect live', async () => {
    await page.getByRole('link', { name: 'Connections' }).click();
    await page.getByRole('button', { name: 'New connection' }).click();
    await page.getByLabel('Name').fill('Sandbox desk');
    await page.getByLabel('Channel').selectOption('sandbox');
    await page.getByLabel('API token (official message API)').fill('console-e2e-connection-token-01');
    await page.getByRole('button', { name: 'Create' }).click();
    const card = page.locator('[data-testid^="connection-"]').filter({ hasText: 'Sandbox desk' });
    await card.getByTestId('connection-status').filter({ hasText: 'Connected' }).waitFor();
    connectionId = Number((await card.getAttribute('data-testid'))!.replace('connection-', ''));
    await shot(page, '03-connections');
  });

  it('shows an inbound message in the pending tab without a reload; accepting opens it', async () => {
    await page.getByRole('link', { name: 'Inbox' }).click();
    await page.getByTestId('tab-pending').click();
    await b.sandbox!.inject(connectionId, { from: '5511988880001', body: 'Hello, my order did not arrive', senderName: 'Maria Souza' });
    const row = page.locator('button[data-testid^="ticket-"]').filter({ hasText: 'Maria Souza' });
    await row.waitFor();
    ticketId = Number((await row.getAttribute('data-testid'))!.replace('ticket-', ''));
    await row.click();
    await page.getByTestId('messages').getByText('Hello, my order did not arrive').waitFor();
    await shot(page, '04-pending');
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('button', { name: 'Close', exact: true }).waitFor();
    await page.getByTestId('tab-open').click();
    await page.getByTestId(`ticket-${ticketId}`).waitFor();
  });

  it('replies with a text and a file: the sandbox receives both once and the ticks reach read', async () => {
    const box = page.getByTestId('reply-text');
    await box.fill('Hi Maria, let me check that for you.');
    await box.press('Enter');
    await page.getByTestId('reply-files').setInputFiles({ name: 'receipt.txt', mimeType: 'text/plain', buffer: Buffer.from('order 1234: shipped') });
    await box.fill('Here is the receipt');
    await page.getByRole('button', { name: 'Send' }).click();
    const mine = page.getByTestId('message').and(page.locator('.mine'));
    await eventually('both replies to be read', async () => (await mine.and(page.locator('[data-status="read"]')).count()) === 2);
    const sent = b.sandbox!.session(connectionId).sent;
    expect(sent.map((s) => s.content.body)).to.deep.equal(['Hi Maria, let me check that for you.', 'Here is the receipt']);
    expect(sent[1]!.content.media?.filename).to.equal('receipt.txt');
    // The queue lets a reply go once the server has answered its send (the frames may come first).
    await page.getByTestId('pending-reply').first().waitFor({ state: 'detached' });
    await shot(page, '05-conversation');
  });

  it("a second operator's browser sees the ticket move live when it is returned to pending and taken", async () => {
    const api = await apiAsAdmin();
    const res = await api.post('/users', { name: 'Bia Operator', email: 'bia@desk.test', password: 'operator-pass-1', profile: 'admin' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    const other = await browser.newContext({ locale: 'pt-BR', viewport: { width: 1280, height: 800 } });
    const bia = await other.newPage();
    await bia.goto(`${b.url}/app/`);
    await bia.getByLabel('E-mail').fill('bia@desk.test');
    await bia.getByLabel('Senha').fill('operator-pass-1');
    await bia.getByRole('button', { name: 'Entrar' }).click();
    await bia.getByTestId('realtime-state').filter({ hasText: 'Ao vivo' }).waitFor();
    await bia.getByTestId('tab-pending').click();
    await page.getByRole('button', { name: 'Return to pending' }).click();
    await bia.getByTestId(`ticket-${ticketId}`).waitFor();
    await shot(bia, '06-second-operator-pt-BR');
    await page.getByRole('button', { name: 'Accept' }).click();
    await bia.getByTestId(`ticket-${ticketId}`).waitFor({ state: 'detached' });
    await other.close();
  });

  it('after the socket drops, the messages that arrived meanwhile are all shown, once', async () => {
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    await admin.setOffline(true);
    await page
      .getByTestId('realtime-state')
      .filter({ hasText: /Reconnecting|Offline/ })
      .waitFor();
    for (const n of [1, 2, 3]) await b.sandbox!.inject(connectionId, { from: '5511988880001', body: `while away ${n}`, senderName: 'Maria Souza' });
    await eventually('the three to be stored', async () => {
      const messages = (await (await apiAsAdmin()).get(`/messages/${ticketId}`)).body.messages as Array<{ body: string }>;
      return messages.filter((m) => m.body.startsWith('while away')).length === 3;
    });
    await admin.setOffline(false);
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    const log = page.getByTestId('messages');
    for (const n of [1, 2, 3]) await log.getByText(`while away ${n}`, { exact: true }).waitFor();
    // A later message, sent after the replay, arrives after it: by then any duplicate would be shown too.
    await b.sandbox!.inject(connectionId, { from: '5511988880001', body: 'after the return', senderName: 'Maria Souza' });
    await log.getByText('after the return', { exact: true }).waitFor();
    for (const n of [1, 2, 3]) expect(await log.getByText(`while away ${n}`, { exact: true }).count()).to.equal(1);
  });

  it('closes the conversation', async () => {
    await page.getByRole('button', { name: 'Close', exact: true }).click();
    await page.getByText('This conversation is closed.').waitFor();
    await page.getByTestId('tab-closed').click();
    await page.getByTestId(`ticket-${ticketId}`).waitFor();
    await shot(page, '07-closed');
  });

  it('never shows a `user` profile a ticket outside its queues', async () => {
    const api = await apiAsAdmin();
    const sales = (await api.post('/queue', { name: 'Sales', color: '#22aa55', greetingMessage: '' })).body;
    const billing = (await api.post('/queue', { name: 'Billing', color: '#aa2255', greetingMessage: '' })).body;
    expect(sales.id && billing.id, 'queues created').to.be.ok;
    const created = await api.post('/users', { name: 'Caio', email: 'caio@desk.test', password: 'operator-pass-1', profile: 'user', queueIds: [sales.id] });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const ticketIn = async (from: string, name: string, queueId: number) => {
      await b.sandbox!.inject(connectionId, { from, body: `hello from ${name}`, senderName: name });
      const t = await eventually(
        `${name}'s ticket`,
        async () => ((await api.get(`/tickets?showAll=true&searchParam=${from}`)).body.tickets as Array<{ id: number }>)[0],
      );
      expect((await api.put(`/tickets/${t.id}`, { queueId })).status).to.equal(200);
      return t.id;
    };
    const visible = await ticketIn('5511977770001', 'Sales Lead', sales.id);
    const hidden = await ticketIn('5511977770002', 'Billing Client', billing.id);
    const context = await browser.newContext({ locale: 'es-ES', viewport: { width: 390, height: 844 } });
    const caio = await context.newPage();
    await caio.goto(`${b.url}/app/`);
    await caio.getByLabel('Correo electrónico').fill('caio@desk.test');
    await caio.getByLabel('Contraseña').fill('operator-pass-1');
    await caio.getByRole('button', { name: 'Entrar' }).click();
    await caio.getByTestId('tab-pending').click();
    await caio.getByTestId(`ticket-${visible}`).waitFor();
    expect(await caio.getByTestId(`ticket-${hidden}`).count()).to.equal(0);
    await shot(caio, '08-user-profile-phone-es');
    await caio.goto(`${b.url}/app/tickets/${hidden}`);
    await caio.getByRole('alert').waitFor();
    expect(await caio.getByText('hello from Billing Client').count()).to.equal(0);
    await context.close();
  });
});
