import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '../../../backend/test/support/eventually.js';
import { type FakeGraph, startFakeGraph } from '../../../backend/test/support/fake-graph.js';
import { ADMIN, asSuper, newCompanyWithAdmin, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

/**
 * The connections screen's admin side in Chromium against the real backend and the sandbox
 * connector: a connection's fields edited (a refused token shown at its field, nothing typed lost)
 * and read back through the API, a second admin following live, the greeting file uploaded, the
 * health panel showing the health check's figures, imported tickets closed after the dialog says
 * what that does, every session restarted after asking, a Messenger page created with its id and token, a super user editing another company's connection (read as stored, or said deleted), an operator without any of
 * it, Portuguese at a phone's width, and the delete after asking. The steps share one backend.
 */
describe('console: editing, deleting and watching connections in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let api: Awaited<ReturnType<typeof asSuper>>['api'];
  let connectionId: number;
  let salesId: number;
  let graph: FakeGraph;

  before(async function () {
    prepareConsole(this);
    graph = await startFakeGraph({ 'shop-page-token': 'SHOP-PAGE' });
    b = await startTestBackend({ META_GRAPH_URL: graph.url });
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
    ({ api } = await asSuper(b));
    const created = await api.post('/chatapp/', { name: 'Front desk', provider: 'sandbox' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    connectionId = created.body.id as number;
    const sales = await api.post('/queue', { name: 'Sales', color: '#22aa55', greetingMessage: '' });
    expect(sales.status, JSON.stringify(sales.body)).to.be.oneOf([200, 201]);
    salesId = sales.body.id as number;
    const operatorUser = await api.post('/users', { name: 'Olga', email: 'olga@desk.test', password: 'operator-pass-1', profile: 'user', queueIds: [salesId] });
    expect(operatorUser.status, JSON.stringify(operatorUser.body)).to.equal(201);
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await graph?.close();
  });

  const card = (p: Page) => p.getByTestId(`connection-${connectionId}`);

  it('edits every field; a refused token is shown at its field with everything typed kept; the API reads it back and a second admin sees it live', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/connections');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/connections');
    await card(page).getByTestId('connection-status').filter({ hasText: 'Connected' }).waitFor();
    await card(page).getByRole('button', { name: 'Edit Front desk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the connection Front desk' });
    await dialog.getByLabel('Name').fill('Front desk North');
    await dialog.getByLabel('Default connection (new conversations go out on it)').check();
    await dialog.getByLabel('Greeting message').fill('Hello! How can we help?');
    await dialog.getByLabel('Farewell message').fill('Thanks for talking to us.');
    await dialog.getByLabel('Out-of-hours message').fill('We are closed; we answer at 8.');
    await dialog.getByLabel('Reopen window (minutes)').fill('45');
    await dialog.getByLabel('Sales').check();
    const token = dialog.getByLabel('API token (official message API)');
    await token.fill('too short');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The token takes 16 to 256 printable characters without spaces.' }).waitFor();
    expect(await token.getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Name').inputValue()).to.equal('Front desk North');
    expect(await dialog.getByLabel('Greeting message').inputValue()).to.equal('Hello! How can we help?');
    await expectAccessible(page, 'the edit dialog with a refused token', '[role="dialog"]');
    await shot(page, 'connections', 'edit-refused');

    await token.fill('front-desk-token-0123456789');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByTestId('connections-news').filter({ hasText: 'The connection Front desk North was saved.' }).waitFor();

    const read = await api.get(`/chatapp/${connectionId}`);
    expect(read.status).to.equal(200);
    expect(read.body).to.include({
      name: 'Front desk North',
      isDefault: true,
      greetingMessage: 'Hello! How can we help?',
      complationMessage: 'Thanks for talking to us.',
      outOfHoursMessage: 'We are closed; we answer at 8.',
      reopenWindowMinutes: 45,
    });
    expect((read.body.queues as Array<{ id: number }>).map((q) => q.id)).to.deep.equal([salesId]);
    expect(read.body.token, 'the token is set, and answered masked').to.be.a('string').and.not.equal('front-desk-token-0123456789');
    await card(other)
      .getByRole('heading', { name: /Front desk North/ })
      .waitFor();
    await card(other).getByText('Default', { exact: true }).waitFor();
  });

  it('uploads the greeting file from the edit dialog, and shows the token only masked', async () => {
    await card(page).getByRole('button', { name: 'Edit Front desk North' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the connection Front desk North' });
    const masked = (await api.get(`/chatapp/${connectionId}`)).body.token as string;
    await dialog.getByText(`A token is set: ${masked}.`, { exact: false }).waitFor();
    expect(await dialog.getByLabel('API token (official message API)').inputValue()).to.equal('');
    await dialog.getByLabel('Greeting file').setInputFiles({ name: 'welcome.txt', mimeType: 'text/plain', buffer: Buffer.from('Our opening hours: 8 to 18') });
    await dialog.getByRole('status').filter({ hasText: 'The greeting file was saved.' }).waitFor();
    const read = await eventually('the greeting file', async () => {
      const body = (await api.get(`/chatapp/${connectionId}`)).body;
      return body.greetingMediaAttachment ? body : null;
    });
    expect(read.greetingMediaKey).to.be.a('string');
    await dialog
      .getByTestId('greeting-media')
      .filter({ hasText: `Current file: ${read.greetingMediaAttachment}` })
      .waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("edits a page's id at the provider, a malformed one refused at its field, its access token write-only", async () => {
    const created = await api.post('/socialnet/', {
      name: 'Shop page',
      provider: 'sandbox',
      externalId: 'SHOP-PAGE',
      secrets: { pageAccessToken: 'shop-page-token' },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const pageCard = page.getByTestId(`connection-${created.body.id}`);
    await pageCard.getByRole('button', { name: 'Edit Shop page' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the connection Shop page' });
    const externalId = dialog.getByLabel('Page or account id');
    expect(await externalId.inputValue()).to.equal('SHOP-PAGE');
    expect(await dialog.getByLabel('Page access token').inputValue(), 'never shown').to.equal('');
    await dialog.getByLabel('Name').fill('Shop page, renamed');
    await externalId.fill('shop page!');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Up to 128 letters, digits, _, ., : or -.' }).waitFor();
    expect(await externalId.getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Name').inputValue()).to.equal('Shop page, renamed');
    await externalId.fill('SHOP-PAGE');
    // A new access token is asked of the provider: the Graph API says it is the page's.
    graph.pages.set('shop-page-token-2', 'SHOP-PAGE');
    await dialog.getByLabel('Page access token').fill('shop-page-token-2');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    const read = (await api.get(`/chatapp/${created.body.id}`)).body;
    expect(read).to.include({ name: 'Shop page, renamed', externalId: 'SHOP-PAGE' });
    expect((await api.delete(`/chatapp/${created.body.id}`)).status).to.equal(200);
    await pageCard.waitFor({ state: 'detached' });
  });

  it('creates a Messenger page with its id and access token, a token the provider refuses said at its field with everything typed kept', async () => {
    await page.getByRole('button', { name: 'New connection' }).click();
    const dialog = page.getByRole('dialog', { name: 'New connection' });
    await dialog.getByLabel('Name').fill('Promo page');
    await dialog.getByLabel('Channel').selectOption('messenger');
    await dialog.getByLabel('Page or account id').fill('PROMO-PAGE');
    await dialog.getByLabel('Page access token').fill('not-a-page-token');
    await dialog.getByRole('button', { name: 'Create' }).click();
    const tokenField = dialog.getByLabel('Page access token');
    await dialog.getByText('The provider refused this access token.').waitFor();
    expect(await tokenField.getAttribute('aria-invalid')).to.equal('true');
    await expectAccessible(page, 'a new page refused for its access token');
    expect(await dialog.getByLabel('Page or account id').inputValue()).to.equal('PROMO-PAGE');
    expect(await dialog.getByLabel('Name').inputValue()).to.equal('Promo page');
    graph.pages.set('promo-page-token', 'PROMO-PAGE');
    await tokenField.fill('promo-page-token');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'detached' });
    const created = ((await api.get('/chatapp/')).body as Array<Record<string, unknown>>).find((c) => c.name === 'Promo page');
    expect(created).to.include({ kind: 'socialnet', provider: 'messenger', externalId: 'PROMO-PAGE' });
    await page.getByTestId(`connection-${created!.id}`).waitFor();
    expect((await api.delete(`/chatapp/${created!.id}`)).status).to.equal(200);
  });

  it('puts the session on a proxy chosen in the edit dialog, then back to a direct connection', async () => {
    const proxy = await api.post('/proxy', { name: 'Lisbon 1', protocol: 'socks5', host: '8.8.8.8', port: 1080, maxConnections: 3, skipCheck: true });
    expect(proxy.status, JSON.stringify(proxy.body)).to.be.oneOf([200, 201]);
    await card(page).getByRole('button', { name: 'Edit Front desk North' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the connection Front desk North' });
    await dialog.getByLabel('Proxy').selectOption({ label: 'Lisbon 1 (0 of 3 in use)' });
    await dialog.getByRole('button', { name: 'Apply the proxy' }).click();
    await dialog.getByTestId('proxy-outcome').filter({ hasText: 'It now goes through Lisbon 1.' }).waitFor();
    const used = (await api.get('/proxy')).body as Array<{ id: number; assignedConnections: number }>;
    expect(used.find((p) => p.id === proxy.body.id)?.assignedConnections).to.equal(1);
    await dialog.getByLabel('Proxy').selectOption({ label: 'No proxy (connect directly)' });
    await dialog.getByRole('button', { name: 'Apply the proxy' }).click();
    await dialog.getByTestId('proxy-outcome').filter({ hasText: 'It now connects directly.' }).waitFor();
    const freed = (await api.get('/proxy')).body as Array<{ id: number; assignedConnections: number }>;
    expect(freed.find((p) => p.id === proxy.body.id)?.assignedConnections).to.equal(0);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });

  it("shows the health check's figures to an admin", async () => {
    const panel = page.getByTestId('health-panel');
    await panel.getByRole('button', { name: 'Check again' }).click();
    await panel.getByTestId('health-jobs').waitFor();
    const report = (await api.get('/debug-queues')).body;
    expect(report.status).to.equal('ok');
    await panel.getByTestId('health-status').filter({ hasText: 'All is well' }).waitFor();
    for (const part of ['database', 'cache', 'broker'] as const) {
      expect(await panel.getByTestId(`health-${part}`).textContent(), part).to.equal(report[part].connected ? 'answers' : 'does not answer');
    }
    expect(await panel.getByTestId('health-jobs').textContent()).to.equal(String(report.backgroundJobs.running));
    await expectAccessible(page, 'the connections screen with the health panel');
  });

  it('closes the imported tickets after saying what that does', async () => {
    await b.sandbox!.inject(connectionId, { from: '5511977770001', body: 'an old conversation', senderName: 'Rita' });
    await eventually('the pending ticket', async () => {
      const tickets = (await api.get('/tickets?showAll=true&status=pending&searchParam=5511977770001')).body.tickets as unknown[];
      return tickets.length > 0;
    });
    await card(page).getByRole('button', { name: 'Close imported tickets' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Close the imported tickets of Front desk North?' });
    await ask.getByText('without sending the farewell message', { exact: false }).waitFor();
    await ask.getByRole('button', { name: 'Close them' }).click();
    await page
      .getByTestId('connections-news')
      .filter({ hasText: /pending tickets? (was|were) closed/ })
      .waitFor();
    const left = (await api.get('/tickets?showAll=true&status=pending&searchParam=5511977770001')).body.tickets as unknown[];
    expect(left).to.have.length(0);
  });

  it('restarts every session of the company only after asking, and says how many', async () => {
    await page.getByRole('button', { name: 'Restart every session' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Restart every session of the company?' });
    await ask.getByText('pages and business numbers are not touched', { exact: false }).waitFor();
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Restart every session' }).click();
    await ask.getByRole('button', { name: 'Restart them' }).click();
    await page.getByTestId('connections-news').filter({ hasText: '1 session is restarting.' }).waitFor();
    // The sandbox session comes back: the card follows the runtime's frames, not the restart's answer.
    await card(page)
      .getByTestId('connection-status')
      .filter({ hasText: /^Connected$/ })
      .waitFor();
  });

  it("lets a super user edit another company's connection", async () => {
    const company = await newCompanyWithAdmin(b);
    const theirs = await company.api.post('/chatapp/', { name: 'Their desk', provider: 'sandbox' });
    expect(theirs.status, JSON.stringify(theirs.body)).to.equal(201);
    await page.getByRole('button', { name: "Show every company's connections" }).click();
    const row = page.getByTestId(`any-connection-${theirs.body.id}`);
    await row.getByText('Their desk').waitFor();
    // Their own admin renames it: no frame reaches the super user's namespace, so Edit reads the stored one.
    expect((await company.api.put(`/chatapp/${theirs.body.id}`, { name: 'Their front desk' })).status).to.equal(200);
    await row.getByRole('button', { name: 'Edit Their desk' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the connection Their front desk' });
    expect(await dialog.getByLabel('Name').inputValue()).to.equal('Their front desk');
    await dialog.getByLabel('Name').fill('Their desk, renamed');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await company.api.get(`/chatapp/${theirs.body.id}`)).body.name).to.equal('Their desk, renamed');
    await row.getByText('Their desk, renamed').waitFor();
    // Deleted by its company meanwhile: Edit says so, and the row goes.
    expect((await company.api.delete(`/chatapp/${theirs.body.id}`)).status).to.equal(200);
    await row.getByRole('button', { name: 'Edit Their desk, renamed' }).click();
    await page.getByTestId('connections-news').filter({ hasText: 'Their desk, renamed was deleted meanwhile.' }).waitFor();
    await row.waitFor({ state: 'detached' });
  });

  it('offers an operator neither the edit, the delete nor the health panel', async () => {
    const { page: olga, context } = await operator(browser);
    await signIn(olga, b.url, 'olga@desk.test', 'operator-pass-1', '/app/connections');
    await card(olga).getByTestId('connection-status').waitFor();
    expect(await card(olga).getByRole('button', { name: 'Edit Front desk North' }).count()).to.equal(0);
    expect(await card(olga).getByRole('button', { name: 'Delete' }).count()).to.equal(0);
    expect(await card(olga).getByRole('button', { name: 'Disconnect' }).count(), 'no session actions').to.equal(0);
    expect(await olga.getByTestId('health-panel').count()).to.equal(0);
    expect(await olga.getByRole('button', { name: 'New connection' }).count()).to.equal(0);
    expect(await olga.getByRole('button', { name: 'Restart every session' }).count()).to.equal(0);
    await context.close();
  });

  it('speaks Portuguese, and the edit dialog fits a phone', async () => {
    const { page: phone, context } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/connections`);
    await phone.getByLabel('E-mail').fill(ADMIN.email);
    await phone.getByLabel('Senha').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Conexões', level: 1 }).waitFor();
    await card(phone).getByRole('button', { name: 'Editar Front desk North' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Editar a conexão Front desk North' });
    await dialog.getByLabel('Mensagem de saudação').waitFor();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth), 'no sideways scrolling').to.be.at.most(390);
    const save = await dialog.getByRole('button', { name: 'Salvar' }).boundingBox();
    expect(save).to.not.equal(null);
    expect(save!.x + save!.width).to.be.at.most(390);
    await expectAccessible(phone, 'the edit dialog in Portuguese at a phone’s width', '[role="dialog"]');
    await shot(phone, 'connections', 'edit-phone-pt-BR');
    await context.close();
  });

  it('deletes the connection only after asking; both admins see it go', async () => {
    await card(page).getByRole('button', { name: 'Delete' }).click();
    const ask = page.getByRole('alertdialog', { name: 'Delete the connection Front desk North?' });
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await ask.waitFor({ state: 'detached' });
    expect((await api.get(`/chatapp/${connectionId}`)).status, 'still there after Cancel').to.equal(200);
    await card(page).getByRole('button', { name: 'Delete' }).click();
    await ask.getByRole('button', { name: 'Delete' }).click();
    await page.getByTestId('connections-news').filter({ hasText: 'The connection Front desk North was deleted.' }).waitFor();
    for (const p of [page, other]) await card(p).waitFor({ state: 'detached' });
    expect((await api.get(`/chatapp/${connectionId}`)).status).to.equal(404);
  });
});
