import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { asSuper, type TestBackend, startTestBackend, ADMIN } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * Pairing a chat-application session by phone number in Chromium against the real backend and
 * the sandbox connector: a wrong number is refused at its field, the code the session reports
 * appears live (large, copyable, with the steps), a second admin sees it too, and the card shows
 * "Connected" once the "phone" enters it; then at a phone's width. The steps share one backend.
 */
describe('console: pairing a session by phone number in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let other: Page;
  let connectionId: number;

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    browser = await launchChromium();
    ({ context, page } = await operator(browser));
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  const card = (p: Page) => p.getByTestId(`connection-${connectionId}`);

  it('offers pairing by phone number on a session that is not connected, and refuses a number without its country code', async () => {
    const { api } = await asSuper(b);
    const created = await api.post('/chatapp/', { name: 'Phone desk', provider: 'sandbox' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    connectionId = created.body.id as number;
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/connections');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/connections');
    await card(page).getByTestId('connection-status').filter({ hasText: 'Connected' }).waitFor();
    expect(await card(page).getByRole('button', { name: 'Pair with a phone number instead' }).count()).to.equal(0);

    await card(page).getByRole('button', { name: 'Disconnect' }).click();
    await card(page).getByTestId('connection-status').filter({ hasText: 'Disconnected' }).waitFor();
    await card(page).getByRole('button', { name: 'Pair with a phone number instead' }).click();
    const phone = card(page).getByLabel('Phone number of the account');
    expect(await phone.evaluate((el) => el === document.activeElement)).to.equal(true);
    await phone.fill('9999-00');
    await card(page).getByRole('button', { name: 'Get the code' }).click();
    await card(page).getByRole('alert').filter({ hasText: 'Type the number with its country code' }).waitFor();
    expect(await phone.getAttribute('aria-invalid')).to.equal('true');
    await expectAccessible(page, 'the phone number form with its error');
  });

  it('shows the code the session reports, live on both screens, copyable, with the steps; the card connects once the phone enters it', async () => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.url });
    await card(page).getByLabel('Phone number of the account').fill('+55 (11) 99999-0000');
    await card(page).getByRole('button', { name: 'Get the code' }).click();
    const shown = card(page).getByTestId('pairing-code');
    await shown.waitFor();
    const pairing = b.sandbox!.session(connectionId).pairing!;
    expect(pairing.phoneNumber).to.equal('5511999990000');
    expect(await shown.textContent()).to.equal(`${pairing.code.slice(0, 4)}-${pairing.code.slice(4)}`);
    await card(page).getByTestId('connection-status').filter({ hasText: 'Waiting for the code on the phone' }).waitFor();
    // The operator who asked lands on the code; the second admin's screen follows without a reload.
    expect(await page.evaluate(() => document.activeElement?.textContent)).to.equal('Type this code on the phone');
    expect(await card(other).getByTestId('pairing-code').textContent()).to.equal(await shown.textContent());
    await card(page).getByText('Tap “Link with phone number instead”.').waitFor();

    await card(page).getByRole('button', { name: 'Copy the code' }).click();
    await card(page).getByText('Copied', { exact: true }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).to.equal(pairing.code);
    await expectAccessible(page, 'the pairing code');
    await shot(page, 'connections', 'pairing-code');

    expect(b.sandbox!.session(connectionId).enterPairingCode(pairing.code)).to.equal(true);
    for (const p of [page, other]) {
      await card(p).getByTestId('connection-status').filter({ hasText: 'Connected' }).waitFor();
      await card(p).getByTestId('pairing-code').waitFor({ state: 'detached' });
    }
  });

  it('fits a phone: the code and its copy button at 360 pixels', async () => {
    const phone = await operator(browser, { width: 360, height: 740 });
    await signIn(phone.page, b.url, ADMIN.email, ADMIN.password, '/app/connections');
    await card(phone.page).getByRole('button', { name: 'Disconnect' }).click();
    await card(phone.page).getByTestId('connection-status').filter({ hasText: 'Disconnected' }).waitFor();
    await card(phone.page).getByRole('button', { name: 'Pair with a phone number instead' }).click();
    await card(phone.page).getByLabel('Phone number of the account').fill('5511999990000');
    await card(phone.page).getByRole('button', { name: 'Get the code' }).click();
    const code = card(phone.page).getByTestId('pairing-code');
    await code.waitFor();
    const copy = card(phone.page).getByRole('button', { name: 'Copy the code' });
    for (const box of [await code.boundingBox(), await copy.boundingBox()]) {
      expect(box).to.not.equal(null);
      expect(box!.x).to.be.at.least(0);
      expect(box!.x + box!.width).to.be.at.most(360);
    }
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).to.be.at.most(360);
    await shot(phone.page, 'connections', 'pairing-code-phone');
    await phone.context.close();
  });
});
