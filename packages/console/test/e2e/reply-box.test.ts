import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { startFakeBizchat, type FakeBizchat } from '../../../backend/test/support/fake-bizchat.js';
import { ADMIN, client, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const MARIA = '5511988880001';
const SHOTS = path.join(os.tmpdir(), 'console-screenshots', 'reply-box');
const APP_SECRET = 'meta-app-secret-console';
const PHONE_NUMBER_ID = '106540352242977';
const WABA_ID = '102290129340377';
const TOKEN = 'EAAbizchat-console-token';
const CUSTOMER = '5511977776666';
/** A business-API template as the provider lists it: a text header, a body with two variables, a URL button. */
const ORDER_UPDATE = {
  id: '1192339204654400',
  name: 'order_update',
  language: 'pt_BR',
  status: 'APPROVED',
  category: 'UTILITY',
  parameter_format: 'POSITIONAL',
  components: [
    { type: 'HEADER', format: 'TEXT', text: 'Pedido {{1}}' },
    { type: 'BODY', text: 'Olá {{1}}, seu pedido saiu para entrega em {{2}}.' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Rastrear', url: 'https://loja.example/track/{{1}}' }] },
  ],
};
const PROMO = {
  id: '530287305762200',
  name: 'promo',
  language: 'pt_BR',
  status: 'PENDING',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: 'Oferta!' }],
};
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

/**
 * The reply box in Chromium against the real backend: quick replies with their variables and file,
 * emoji at the caret, files with their captions, an upload taken back, a voice note, the signature.
 * Each step checks what the sandbox connection sent. The steps share one backend and one browser, in order.
 */
describe(`console: the reply box in Chromium (skipped when ${CHROMIUM} is absent)`, function () {
  this.timeout(120_000);
  let b: TestBackend;
  let fake: FakeBizchat;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let ticketId: number;
  let adminName: string;

  const shot = async (name: string) => {
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`) });
  };
  const box = () => page.getByTestId('reply-text');
  const sent = () => desk.sent().map((s) => ({ body: s.content.body, file: s.content.media?.filename ?? null }));
  /** Waits for the sandbox to have sent `count` messages in all, and returns the ones after `from`. */
  const sentAfter = (from: number, count: number) => eventually(`${count} messages sent`, () => desk.sent().length >= from + count && sent().slice(from));

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.log(`      skipped: no browser at ${CHROMIUM} (install the chromium package to run it)`);
      this.skip();
    }
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { cwd: ROOT, stdio: 'inherit' });
    fake = await startFakeBizchat(PHONE_NUMBER_ID, TOKEN, WABA_ID);
    fake.templates.set(WABA_ID, [ORDER_UPDATE, PROMO]);
    // Public files (a template's) are served from their own host, as from a CDN in front of the backend.
    b = await startTestBackend({ PUBLIC_URL: 'http://files.test', META_APP_SECRET: APP_SECRET, META_GRAPH_URL: fake.url, OUTBOX_RELAY_INTERVAL_MS: '100' });
    desk = await sandboxDesk(b);
    adminName = (await desk.admin.get(`/users/${desk.adminId}`)).body.name;
    const welcome = await desk.admin.post('/company-templates', {
      shortcut: 'boas-vindas',
      message: 'Hello {{firstName}}, this is {{userName}}.',
      global: true,
    });
    expect(welcome.status, JSON.stringify(welcome.body)).to.equal(200);
    const withFile = new FormData();
    for (const [k, v] of Object.entries({ shortcut: 'price-list', message: 'Here is our price list, {{firstName}}.', global: 'true' })) withFile.append(k, v);
    withFile.append('media', new Blob([PDF], { type: 'application/pdf' }), 'prices.pdf');
    expect((await desk.admin.post('/company-templates', withFile)).status).to.equal(200);
    const other = await desk.admin.post('/company-templates', { shortcut: 'goodbye', message: 'Bye!', global: true });
    expect(other.status).to.equal(200);
    ticketId = (await desk.inbound(MARIA, 'Hello, my order did not arrive', { senderName: 'Maria Souza' })).id;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-dev-shm-usage',
        // A microphone that plays a tone, allowed without asking: the voice note records it.
        '--use-fake-device-for-media-stream',
        '--use-fake-ui-for-media-stream',
      ],
    });
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 800 } });
    context.setDefaultTimeout(15_000);
    await context.route('http://files.test/**', async (route) => {
      const res = await fetch(`${b.url}${new URL(route.request().url()).pathname}`);
      await route.fulfill({
        status: res.status,
        body: Buffer.from(await res.arrayBuffer()),
        headers: { 'content-type': res.headers.get('content-type') ?? 'application/octet-stream', 'access-control-allow-origin': '*' },
      });
    });
    page = await context.newPage();
    await page.goto(`${b.url}/app/`);
    await page.getByLabel('E-mail').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('realtime-state').filter({ hasText: 'Live' }).waitFor();
    await page.goto(`${b.url}/app/tickets/${ticketId}`);
    await page.getByTestId('messages').getByText('Hello, my order did not arrive').waitFor();
    await page.getByRole('button', { name: 'Accept' }).click();
    await page.getByRole('button', { name: 'Return to pending' }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await fake?.close();
  });

  it('`/` lists the quick replies as a listbox; typing filters, arrows move, Enter puts the text with its variables filled', async () => {
    const listbox = page.getByRole('listbox', { name: 'Quick replies' });
    await box().fill('/');
    await listbox.getByRole('option').filter({ hasText: '/goodbye' }).waitFor();
    expect(await box().getAttribute('role')).to.equal('combobox');
    expect(await box().getAttribute('aria-expanded')).to.equal('true');
    await box().pressSequentially('bo');
    await listbox.getByRole('option').filter({ hasText: '/goodbye' }).waitFor({ state: 'detached' });
    const options = listbox.getByRole('option');
    expect(await options.count()).to.equal(1);
    expect(await options.first().textContent()).to.contain('/boas-vindas');
    await box().fill('/');
    await listbox.getByRole('option').filter({ hasText: '/price-list' }).waitFor();
    // Arrows move the active option, named by aria-activedescendant while the focus stays in the box.
    const active = async () => {
      const id = await box().getAttribute('aria-activedescendant');
      return { text: await page.locator(`[id="${id}"]`).textContent(), selected: await page.locator(`[id="${id}"]`).getAttribute('aria-selected') };
    };
    expect((await active()).text).to.contain('/boas-vindas');
    await shot('01-quick-replies');
    await box().press('ArrowDown');
    expect(await active()).to.deep.include({ selected: 'true' });
    expect((await active()).text).to.contain('/goodbye');
    await box().press('ArrowUp');
    expect((await active()).text).to.contain('/boas-vindas');
    await box().press('Enter');
    await eventually('the rendered text in the box', async () => (await box().inputValue()) === `Hello Maria, this is ${adminName}.`);
    expect(await listbox.count(), 'the list closes').to.equal(0);
    expect(await box().getAttribute('aria-expanded')).to.equal('false');
    const before = desk.sent().length;
    await box().press('Enter');
    expect(await sentAfter(before, 1)).to.deep.equal([{ body: `Hello Maria, this is ${adminName}.`, file: null }]);
  });

  it('a quick reply with a file attaches it; Escape closes the list and keeps what was typed', async () => {
    await box().fill('/pri');
    await page.getByRole('option').filter({ hasText: '/price-list' }).click();
    await page.getByTestId('attachment').filter({ hasText: 'prices.pdf' }).waitFor();
    expect(await box().inputValue()).to.equal('Here is our price list, Maria.');
    const before = desk.sent().length;
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    expect(await sentAfter(before, 1)).to.deep.equal([{ body: 'Here is our price list, Maria.', file: 'prices.pdf' }]);
    await box().fill('/go');
    await page.getByRole('listbox', { name: 'Quick replies' }).waitFor();
    await box().press('Escape');
    await page.getByRole('listbox', { name: 'Quick replies' }).waitFor({ state: 'detached' });
    expect(await box().inputValue()).to.equal('/go');
    await box().fill('');
  });

  it('the emoji grid opens from its button, moves with the arrows and inserts at the caret', async () => {
    await box().fill('Thanks !');
    await box().press('ArrowLeft');
    await page.getByRole('button', { name: 'Insert an emoji' }).click();
    const grid = page.getByRole('group', { name: 'Emoji' });
    await grid.waitFor();
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('😀');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    // Eight a row: two right, one down.
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('😘');
    await shot('02-emoji');
    await page.keyboard.press('Enter');
    await grid.waitFor({ state: 'detached' });
    expect(await box().inputValue()).to.equal('Thanks 😘!');
    // The focus is back in the box, the caret after the emoji: typing goes on there.
    await page.keyboard.type(' a lot');
    expect(await box().inputValue()).to.equal('Thanks 😘 a lot!');
    const before = desk.sent().length;
    await page.keyboard.press('Enter');
    expect(await sentAfter(before, 1)).to.deep.equal([{ body: 'Thanks 😘 a lot!', file: null }]);
  });

  it('two files with their captions reach the contact as two messages, each with its caption', async () => {
    await page.getByTestId('reply-files').setInputFiles([
      { name: 'invoice.txt', mimeType: 'text/plain', buffer: Buffer.from('invoice 1234') },
      { name: 'receipt.txt', mimeType: 'text/plain', buffer: Buffer.from('receipt 1234') },
    ]);
    await page.getByLabel('Caption for invoice.txt').fill('Your invoice');
    await page.getByLabel('Caption for receipt.txt').fill('And the receipt');
    const before = desk.sent().length;
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    expect(await sentAfter(before, 2)).to.deep.equal([
      { body: 'Your invoice', file: 'invoice.txt' },
      { body: 'And the receipt', file: 'receipt.txt' },
    ]);
    expect(await page.getByTestId('attachment').count()).to.equal(0);
  });

  it('an upload shows its progress and, cancelled, goes back to the box with its caption; nothing is sent', async () => {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    // A slow uplink (64 kB/s) so the 2 MB upload lasts long enough to be seen and cancelled.
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 64 * 1024 });
    await page.getByTestId('reply-files').setInputFiles({ name: 'big.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(2 * 1024 * 1024, 7) });
    await page.getByLabel('Caption for big.bin').fill('The big one');
    const before = desk.sent().length;
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const progress = page.getByRole('progressbar', { name: 'Upload of big.bin' });
    await eventually('some of the upload to be reported', async () => Number(await progress.getAttribute('value')) > 0);
    await shot('03-upload');
    await page.getByRole('button', { name: 'Cancel sending big.bin' }).click();
    await page.getByTestId('attachment').filter({ hasText: 'big.bin' }).waitFor();
    expect(await page.getByLabel('Caption for big.bin').inputValue()).to.equal('The big one');
    await page.getByTestId('upload').waitFor({ state: 'detached' });
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await cdp.detach();
    await page.getByRole('button', { name: 'Remove big.bin' }).click();
    // A later text goes out on the same conversation after anything the cancelled upload could have caused.
    await box().fill('After the cancel');
    await box().press('Enter');
    expect(await sentAfter(before, 1)).to.deep.equal([{ body: 'After the cancel', file: null }]);
  });

  it('records a voice note, shows the time, and sends it as an audio file after hearing it', async () => {
    await page.getByRole('button', { name: 'Record a voice note' }).click();
    const timer = page.getByRole('timer');
    await timer.filter({ hasText: '0:01' }).waitFor();
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await page.getByTestId('voice-note').locator('audio').waitFor();
    await shot('04-voice-note');
    const before = desk.sent().length;
    await page.getByRole('button', { name: 'Send the voice note' }).click();
    const [voice] = await sentAfter(before, 1);
    expect(voice!.file).to.match(/^voice-\d{8}-\d{6}\.(webm|ogg)$/);
    expect(desk.sent().at(-1)!.content.media!.contentType).to.match(/^audio\//);
  });

  it('signs with the name in bold on the first line once turned on, and remembers it for the user after a reload', async () => {
    await page.getByLabel('Sign with my name').check();
    await box().fill('Signed reply');
    const before = desk.sent().length;
    await box().press('Enter');
    expect(await sentAfter(before, 1)).to.deep.equal([{ body: `*${adminName}:*\nSigned reply`, file: null }]);
    await page.reload();
    await page.getByTestId('messages').getByText('Signed reply').waitFor();
    expect(await page.getByLabel('Sign with my name').isChecked()).to.equal(true);
    // A private note is for the operators: never signed.
    await page.getByLabel('Private note').check();
    expect(await page.getByLabel('Sign with my name').count()).to.equal(0);
  });

  it("fits a phone's width with files and captions", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Private note').uncheck();
    await page.getByTestId('reply-files').setInputFiles([
      { name: 'a-rather-long-file-name-for-a-phone-screen.pdf', mimeType: 'application/pdf', buffer: PDF },
      { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('png') },
    ]);
    await page.getByLabel('Caption for photo.png').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(390);
    await shot('05-phone');
    for (const name of ['Send', 'Attach files', 'Insert an emoji', 'Record a voice note']) {
      const boxOf = await page.getByRole('button', { name, exact: true }).boundingBox();
      expect(boxOf && boxOf.x >= 0 && boxOf.x + boxOf.width <= 390, `${name} within the screen`).to.equal(true);
    }
  });

  it('on the business API: free text refused outside the 24-hour window says so in words and offers the approved templates; the contact writing opens it again', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const created = await desk.admin.post('/chatapp/', {
      name: 'Official',
      kind: 'bizchat',
      externalId: PHONE_NUMBER_ID,
      secrets: { accessToken: TOKEN, wabaId: WABA_ID },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const chatappId = created.body.id as number;
    await eventually('the number to connect', async () => (await desk.admin.get(`/chatapp/${chatappId}`)).body.status === 'CONNECTED');
    // A conversation the company started with a template: the contact has not written yet.
    const first = await desk.admin.post('/send-bizchat-template', {
      chatappId,
      number: CUSTOMER,
      templateName: 'order_update',
      language: 'pt_BR',
      parameters: { header: ['#42'], body: ['Ana', 'São Paulo'], buttons: ['42'] },
    });
    expect(first.status, JSON.stringify(first.body)).to.equal(200);
    await eventually('the first template at the provider', () => fake.sent.length === 1);
    await page.goto(`${b.url}/app/tickets/${first.body.ticketId}`);
    await page.getByTestId('messages').getByText('Olá Ana, seu pedido saiu para entrega em São Paulo.', { exact: false }).waitFor();
    await page.getByTestId('service-window').filter({ hasText: 'is not among those shown' }).waitFor();
    await page.getByLabel('Sign with my name').uncheck();

    await box().fill('Are you there?');
    await box().press('Enter');
    // The refused reply says why in words, as the window's notice does.
    await page.getByTestId('pending-reply').getByRole('alert').filter({ hasText: 'Not sent: The contact has not written in the last 24 hours' }).waitFor();
    await page.getByTestId('service-window').filter({ hasText: 'only an approved template can be sent' }).waitFor();
    expect(await box().count(), 'no free text while the window is closed').to.equal(0);
    const form = page.getByRole('form', { name: 'Send an approved template' });
    const picker = form.getByLabel('Template');
    await picker.locator('option', { hasText: 'order_update' }).waitFor({ state: 'attached' });
    expect(await picker.locator('option').allTextContents(), 'only approved ones').to.deep.equal(['Choose a template', 'order_update (pt_BR)']);
    await picker.selectOption({ label: 'order_update (pt_BR)' });
    await form.getByLabel('Header value 1').fill('#43');
    await form.getByLabel('Value of variable 1').fill('Maria');
    await form.getByLabel('Value of variable 2').fill('Recife');
    await form.getByLabel('Value for button 1').fill('43');
    expect(await form.getByTestId('template-preview').textContent()).to.equal('Olá Maria, seu pedido saiu para entrega em Recife.');
    await shot('06-bizchat-window-closed');
    await form.getByRole('button', { name: 'Send the template' }).click();
    await form.getByRole('status').filter({ hasText: 'Template order_update sent.' }).waitFor();
    await eventually('the second template at the provider', () => fake.sent.length === 2);
    expect(fake.sent[1]!.body.template.components[1].parameters.map((p: { text: string }) => p.text)).to.deep.equal(['Maria', 'Recife']);

    const inbound = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: WABA_ID,
          changes: [
            {
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '551140000000', phone_number_id: PHONE_NUMBER_ID },
                contacts: [{ profile: { name: 'Ana' }, wa_id: CUSTOMER }],
                messages: [
                  // Rounded up: the provider's timestamp has whole seconds, and rounded down it can fall before the refusal
                  // seen within the same second, which the console rightly takes as a message from before the window closed.
                  { from: CUSTOMER, id: 'wamid.IN1', timestamp: String(Math.ceil(Date.now() / 1000)), type: 'text', text: { body: 'When does it arrive?' } },
                ],
              },
            },
          ],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', APP_SECRET).update(inbound).digest('hex')}`;
    expect((await client(b.url).post('/webhook/', inbound, { 'x-hub-signature-256': signature })).status).to.equal(200);
    await page.getByTestId('messages').getByText('When does it arrive?').waitFor();
    await page.getByTestId('service-window').filter({ hasText: 'the 24-hour window is open' }).waitFor();
    // The box's refusal is over (the refused reply itself stays, with its reason, to retry or discard).
    expect(
      await page
        .getByRole('alert')
        .filter({ hasText: /^The contact has not written/ })
        .count(),
      'the refusal is over',
    ).to.equal(0);
    await shot('07-bizchat-window-open');
    await box().fill('Today, in the afternoon');
    await box().press('Enter');
    await eventually('the free text at the provider', () => fake.sent.length === 3);
    expect(fake.sent[2]!.body).to.deep.include({ to: CUSTOMER, type: 'text', text: { body: 'Today, in the afternoon', preview_url: false } });
  });
});
