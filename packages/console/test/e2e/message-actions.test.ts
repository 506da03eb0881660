import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const MARIA = '5511988880011';
const JOAO = '5511988880012';
const LUIZA = '5511988880013';

/**
 * A message's menu (edit, forward, delete) and the ticket's ignore, delete and the inbox's close
 * all, in Chromium against the real backend with the sandbox connection. The steps share one
 * backend and one browser, in order.
 */
describe('console: message and ticket actions in Chromium', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let ticketId: number;
  let sentId: string;

  const bubble = (text: string) => page.getByTestId('message').filter({ hasText: text });
  const header = () => page.locator('.conversation-header');

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    desk = await sandboxDesk(b);
    const maria = await desk.inbound(MARIA, 'Where is my order?', { senderName: 'Maria Souza' });
    ticketId = maria.id;
    await desk.inbound(JOAO, 'Hi there', { senderName: 'Joao Lima' });
    expect((await desk.admin.put(`/tickets/${ticketId}`, { status: 'open', userId: desk.adminId })).status).to.equal(200);
    const sent = await desk.admin.post(`/messages/${ticketId}`, { body: 'Your order ships Monday' });
    expect(sent.status, JSON.stringify(sent.body)).to.be.oneOf([200, 201]);
    sentId = sent.body.messages[0].id;
    await eventually('the message to leave through the sandbox', async () => {
      const messages = (await desk.admin.get(`/messages/${ticketId}`)).body.messages as Array<{ id: string; providerMessageId: string | null }>;
      return !!messages.find((m) => m.id === sentId)?.providerMessageId;
    });
    // The company asks new contacts for consent to its privacy policy; the operator records the answer.
    for (const key of ['enableLGPD', 'lgpdConsent']) expect((await desk.admin.put(`/settings/${key}`, { value: 'enabled' })).status).to.equal(200);
    browser = await launchChromium();
    page = (await operator(browser)).page;
    await signIn(page, b.url, ADMIN.email, ADMIN.password, `/app/tickets/${ticketId}`);
    await bubble('Your order ships Monday').waitFor();
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('edits a sent message from its menu, opened by keyboard: an empty text refused at its field, then the new text marked edited', async () => {
    // The contact's message may only be forwarded.
    await bubble('Where is my order?').getByRole('button', { name: 'Message actions' }).click();
    const theirs = page.getByRole('menu');
    await theirs.getByRole('menuitem', { name: 'Forward' }).waitFor();
    expect(await theirs.getByRole('menuitem').allTextContents()).to.deep.equal(['Forward']);
    await page.keyboard.press('Escape');

    const menuButton = bubble('Your order ships Monday').getByRole('button', { name: 'Message actions' });
    await menuButton.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    expect(await menu.getByRole('menuitem').allTextContents()).to.deep.equal(['Edit', 'Forward', 'Delete']);
    await expectAccessible(page, 'the message menu', '[role="menu"]');
    await shot(page, 'message-actions', '01-menu');
    await menu.getByRole('menuitem', { name: 'Edit' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the message' });
    await dialog.getByLabel('Text').fill('   ');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The text may not be empty.' }).waitFor();
    expect(await dialog.getByLabel('Text').getAttribute('aria-invalid')).to.equal('true');
    await dialog.getByLabel('Text').fill('Your order ships Tuesday');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await bubble('Your order ships Tuesday').getByTestId('edited-mark').waitFor();
    await eventually('the edit at the sandbox', async () => b.sandbox!.session(desk.connectionId).edited.length === 1);
    expect(b.sandbox!.session(desk.connectionId).edited[0]).to.include({ body: 'Your order ships Tuesday' });
  });

  it('forwards a message to a contact found by name', async () => {
    await bubble('Your order ships Tuesday').getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Forward' }).click();
    const dialog = page.getByRole('dialog', { name: 'Forward the message' });
    await dialog.getByRole('button', { name: 'Forward' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Choose a contact.' }).waitFor();
    await dialog.getByLabel('Search contacts').fill('Joao');
    await dialog.getByRole('radio', { name: /Joao Lima/ }).check();
    await expectAccessible(page, 'the forward dialog', '[role="dialog"]');
    await dialog.getByRole('button', { name: 'Forward' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Forwarded to Joao Lima.' }).waitFor();
    await shot(page, 'message-actions', '02-forwarded');
    const joao = (await desk.admin.get(`/tickets?showAll=true&searchParam=${JOAO}`)).body.tickets as Array<{ id: number }>;
    const messages = (await desk.admin.get(`/messages/${joao[0]!.id}`)).body.messages as Array<{ body: string; fromMe: boolean }>;
    expect(messages.filter((m) => m.fromMe).map((m) => m.body)).to.deep.equal(['Your order ships Tuesday']);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
  });

  it('deletes a sent message after asking: it stays, marked deleted, and the contact no longer has it', async () => {
    await bubble('Your order ships Tuesday').getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete this message?' });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect(await bubble('Your order ships Tuesday').getByTestId('deleted-mark').count()).to.equal(0);
    await bubble('Your order ships Tuesday').getByRole('button', { name: 'Message actions' }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await ask.getByRole('button', { name: 'Delete the message' }).click();
    await bubble('Your order ships Tuesday').getByTestId('deleted-mark').waitFor();
    await eventually('the revoke at the sandbox', async () => b.sandbox!.session(desk.connectionId).revoked.length === 1);
    // Nothing left to do with it: the menu is gone.
    expect(await bubble('Your order ships Tuesday').getByRole('button', { name: 'Message actions' }).count()).to.equal(0);
  });

  it("at a phone's width: each message's menu button is within the screen and its menu opens", async () => {
    const phone = await operator(browser, { width: 390, height: 844 });
    await signIn(phone.page, b.url, ADMIN.email, ADMIN.password, `/app/tickets/${ticketId}`);
    const button = phone.page.getByTestId('message').filter({ hasText: 'Where is my order?' }).getByRole('button', { name: 'Message actions' });
    await button.waitFor();
    const box = (await button.boundingBox())!;
    expect(box.x + box.width, 'inside the screen').to.be.at.most(390);
    expect(box.width).to.be.at.least(24);
    await button.click();
    await phone.page.getByRole('menuitem', { name: 'Forward' }).waitFor();
    await shot(phone.page, 'message-actions', '04-phone-menu');
    await phone.context.close();
  });

  it("records the contact's LGPD answer: an acceptance is logged, a refusal (asked first) closes the conversation", async () => {
    const consent = header().getByRole('group', { name: 'LGPD consent' });
    await consent.getByRole('button', { name: 'Accepted' }).click();
    await consent.getByRole('status').filter({ hasText: 'Recorded: the contact accepted.' }).waitFor();
    const log = (await desk.admin.get(`/tickets-log/${ticketId}`)).body as Array<{ type: string; payload: { accepted?: boolean } }>;
    expect(log.filter((e) => e.type === 'lgpd').map((e) => e.payload.accepted)).to.deep.equal([true]);

    const joao = ((await desk.admin.get(`/tickets?showAll=true&searchParam=${JOAO}`)).body.tickets as Array<{ id: number }>)[0]!.id;
    await page.goto(`${b.url}/app/tickets/${joao}`);
    await header().getByRole('group', { name: 'LGPD consent' }).getByRole('button', { name: 'Refused' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Record that the contact refused?' });
    await ask.getByRole('button', { name: 'Record the refusal and close' }).click();
    await page.getByText('This conversation is closed.').waitFor();
    expect((await desk.admin.get(`/tickets/${joao}`)).body.status).to.equal('closed');
    await page.goto(`${b.url}/app/tickets/${ticketId}`);
    await bubble('Where is my order?').waitFor();
  });

  it('ignores the conversation after asking: closed without farewell, logged as ignored', async () => {
    const before = b.sandbox!.session(desk.connectionId).sent.length;
    await header().getByRole('button', { name: 'Ignore' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Ignore this conversation?' });
    await ask.getByRole('button', { name: 'Ignore and close' }).click();
    await page.getByText('This conversation is closed.').waitFor();
    const log = (await desk.admin.get(`/tickets-log/${ticketId}`)).body as Array<{ type: string }>;
    expect(log.map((e) => e.type)).to.include('ignore');
    expect(b.sandbox!.session(desk.connectionId).sent.length, 'no farewell').to.equal(before);
  });

  it('closes all the pending conversations from the inbox, after asking with their count', async () => {
    await desk.inbound(LUIZA, 'Hello?', { senderName: 'Luiza' });
    await page.goto(`${b.url}/app/tickets`);
    await page.getByTestId('tab-pending').click();
    await page.getByRole('button', { name: 'Close all' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Close all these conversations?' });
    const pending = (await desk.admin.get('/tickets/count?status=pending&showAll=true')).body.count as number;
    expect(pending, 'Luiza waits at least').to.be.greaterThan(0);
    const conversations = pending === 1 ? 'conversation you may change closes' : 'conversations you may change close';
    await ask.getByText(`The ${pending} pending ${conversations}, without the farewell message.`).waitFor();
    await shot(page, 'message-actions', '03-close-all');
    await ask.getByRole('button', { name: 'Close them all' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: pending === 1 ? '1 conversation closed.' : `${pending} conversations closed.` })
      .waitFor();
    expect((await desk.admin.get('/tickets/count?status=pending&showAll=true')).body.count).to.equal(0);
  });

  it('deletes the ticket after asking (admins) and goes back to the list', async () => {
    await page.goto(`${b.url}/app/tickets/${ticketId}`);
    await header().getByRole('button', { name: 'Delete' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete this conversation?' });
    await ask.getByRole('button', { name: 'Delete the conversation' }).click();
    await eventually('the list', async () => new URL(page.url()).pathname === '/app/tickets');
    expect((await desk.admin.get(`/tickets/${ticketId}`)).status).to.equal(404);
  });
});
