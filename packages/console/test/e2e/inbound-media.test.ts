import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/**
 * A contact's photo in the conversation, in Chromium against the real backend: shown at once as
 * "Receiving…" with its caption while the file is on its way (the fake CDN holds it), replaced by
 * the image when the message's update frame arrives; a file the channel no longer has shows why;
 * the contact panel lists the conversation's stored files.
 */
describe('console: a contact’s files in the conversation, in Chromium', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let cdn: http.Server;
  let cdnUrl: string;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });

  before(async function () {
    prepareConsole(this);
    cdn = http.createServer((req, res) => {
      if (req.url === '/held.png') {
        void held.then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(PNG));
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve));
    cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true', INBOUND_MEDIA_RETRY_MS: '50' });
    browser = await launchChromium();
  });
  after(async () => {
    release();
    await browser?.close();
    await b?.close();
    await new Promise<void>((resolve) => (cdn ? cdn.close(() => resolve()) : resolve()));
  });

  it('shows "Receiving…" with the caption, then the image once stored; a file the channel lost shows why', async () => {
    const desk = await sandboxDesk(b);
    const from = '5511988887001';
    await b.sandbox!.inject(desk.connectionId, {
      from,
      senderName: 'Maria Souza',
      body: 'my receipt',
      media: { kind: 'image', mimetype: 'image/png', source: { from: 'url', url: `${cdnUrl}/held.png` } },
    });
    const ticketId = await eventually(
      'the ticket',
      async () => ((await desk.admin.get(`/tickets?showAll=true&searchParam=${from}`)).body.tickets[0]?.id as number) ?? null,
    );
    ({ page } = await operator(browser));
    await signIn(page, b.url, ADMIN.email, ADMIN.password);
    await page.goto(`${b.url}/app/tickets/${ticketId}`);
    const messages = page.getByTestId('messages');
    await messages.getByText('my receipt').waitFor();
    await messages
      .getByTestId('media-pending')
      .filter({ hasText: /^\s*Receiving image-.+\.png…$/ })
      .waitFor();
    expect(await messages.getByTestId('media-pending').getAttribute('role')).to.equal('status');
    await expectAccessible(page, 'a file being received', '[data-testid="messages"]');
    await shot(page, 'inbound-media', '01-receiving');

    release();
    const image = messages.locator('img.media');
    await image.waitFor();
    expect(await image.getAttribute('alt')).to.equal('my receipt');
    expect(await image.getAttribute('src')).to.match(/\/public\/company-\d+\/media\/[0-9a-f-]{36}-image-.+\.png$/);
    expect(await messages.getByTestId('media-pending').count()).to.equal(0);

    await b.sandbox!.inject(desk.connectionId, {
      from,
      body: '',
      media: { kind: 'document', mimetype: 'application/pdf', fileName: 'invoice.pdf', source: { from: 'url', url: `${cdnUrl}/gone.pdf` } },
    });
    await messages.getByTestId('media-failed').filter({ hasText: 'invoice.pdf could not be received: the channel no longer has it.' }).waitFor();
    await expectAccessible(page, 'a file that could not be received', '[data-testid="messages"]');
    await shot(page, 'inbound-media', '02-failed');

    // The contact panel lists the conversation's stored files (GET /messages/media); the lost one is not there.
    await page.locator('#contact-panel-toggle').click();
    const files = page.getByTestId('conversation-files');
    await files.getByRole('link', { name: /^image-.+\.png$/ }).waitFor();
    expect(await files.getByRole('link').count()).to.equal(1);
    expect(await files.getByRole('link').getAttribute('href')).to.equal(await image.getAttribute('src'));
  });
});
