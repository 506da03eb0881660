import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { asSuper, type TestBackend, startTestBackend, ADMIN } from '../../../backend/test/support/test-backend.js';
import { eventually } from '../../../backend/test/support/eventually.js';
import { launchChromium, operator, prepareConsole, shot, signIn, switchLanguage } from './support.js';

/**
 * The contact's typing in Chromium against the real backend and the sandbox connector: what the
 * sandbox reports (typing, recording audio, stopped) shows under the conversation's messages, in
 * a polite live region, and the contact's next message ends it; in Portuguese too.
 */
describe("console: the contact's typing in Chromium (skipped when /usr/bin/chromium is absent)", function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let connectionId: number;
  let ticketId: number;

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    browser = await launchChromium();
    page = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('shows the contact typing, then recording audio, and nothing once they stop', async () => {
    const { api } = await asSuper(b);
    const created = await api.post('/chatapp/', { name: 'Typing desk', provider: 'sandbox' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    connectionId = created.body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${connectionId}`)).body.status === 'CONNECTED');
    await b.sandbox!.inject(connectionId, { from: '5511988882222', body: 'Is anyone there?', senderName: 'Joana Lima' });
    ticketId = await eventually('the ticket', async () => {
      const list = await api.get('/tickets?status=pending&showAll=true');
      return (list.body.tickets as Array<{ id: number }>)[0]?.id;
    });

    await signIn(page, b.url, ADMIN.email, ADMIN.password, `/app/tickets/${ticketId}`);
    await page.getByTestId('messages').getByText('Is anyone there?').waitFor();
    const indicator = page.getByTestId('contact-typing');
    expect(await indicator.getAttribute('aria-live')).to.equal('polite');
    expect(await indicator.textContent()).to.equal('');

    const sandbox = b.sandbox!.session(connectionId);
    sandbox.presence('5511988882222', 'composing');
    await indicator.filter({ hasText: 'Joana Lima is typing…' }).waitFor();
    await shot(page, 'contact-typing', 'typing');
    sandbox.presence('5511988882222', 'recording');
    await indicator.filter({ hasText: 'Joana Lima is recording audio…' }).waitFor();
    sandbox.presence('5511988882222', 'paused');
    await page.locator('[data-testid="contact-typing"][data-state="none"]').waitFor();
    expect(await indicator.textContent()).to.equal('');
  });

  it("ends on the contact's next message, and speaks the operator's language", async () => {
    await switchLanguage(page, 'pt-BR');
    const indicator = page.getByTestId('contact-typing');
    b.sandbox!.session(connectionId).presence('5511988882222', 'composing');
    await indicator.filter({ hasText: 'Joana Lima está digitando…' }).waitFor();
    await b.sandbox!.inject(connectionId, { from: '5511988882222', body: 'Hello again', senderName: 'Joana Lima' });
    await page.getByTestId('messages').getByText('Hello again').waitFor();
    await page.locator('[data-testid="contact-typing"][data-state="none"]').waitFor();
    await switchLanguage(page, 'en');
  });
});
