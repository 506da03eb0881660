import { type FakeProxy, startFakeHttpProxy, startFakeSocks5Proxy, startTunnelTarget } from '@servicedesk/core/contracts/fake-proxies';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, asSuper, client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const CREDS = { username: 'acme', password: 'proxy-console-secret-41' };
const BIA = { email: 'bia@proxies.test', password: 'proxies-pass-1' };

type ProxyRow = { id: number; name: string; assignedConnections: number; status: string; active: boolean };

/**
 * The proxies screen in Chromium against the real backend, whose checks open tunnels through an
 * HTTP and a SOCKS5 proxy on loopback (core's fake proxies) to a loopback target: a company admin
 * adds a proxy after a refusal at its field and a failed check explained (nothing typed lost), the
 * password in no page; puts a session connection on a proxy, gives the others one, disables a
 * proxy as problematic and enables it again, spreads, moves off bad proxies, connects one directly,
 * and deletes a proxy in use after the refusal, each explained before and its outcome said after;
 * the platform's proxy read-only to the admin; an operator kept out; Portuguese at a phone's width.
 * No frame follows the proxies (docs/realtime.md): the screen reads them after each change and on
 * "Read again".
 */
describe('console: the proxies screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let target: Awaited<ReturnType<typeof startTunnelTarget>>;
  let httpProxy: FakeProxy;
  let socksProxy: FakeProxy;
  let browser: Browser;
  let page: Page;
  let bia: ReturnType<typeof client>;

  const card = (p: Page, name: string) => p.getByRole('listitem').filter({ has: p.getByRole('heading', { name, exact: true }) });
  const outcome = (p: Page) => p.getByTestId('proxy-outcome');
  const proxies = async () => (await bia.get('/proxy')).body as ProxyRow[];
  /** Runs a balancing action after its explanation. */
  async function balance(label: string, explained: string) {
    await page.getByRole('button', { name: label, exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: label });
    await confirm.getByText(explained).waitFor();
    await confirm.getByRole('button', { name: 'Do it' }).click();
    await outcome(page).getByRole('heading', { name: label }).waitFor();
  }

  before(async function () {
    prepareConsole(this);
    target = await startTunnelTarget();
    httpProxy = await startFakeHttpProxy({ credentials: CREDS });
    socksProxy = await startFakeSocks5Proxy({ credentials: CREDS });
    b = await startTestBackend({
      ALLOW_PRIVATE_URLS: 'true',
      PROXY_CHECK_TARGET: `127.0.0.1:${target.port}`,
      PROXY_CHECK_TIMEOUT_MS: '2000',
    });
    browser = await launchChromium();
    page = (await operator(browser)).page;
    const { api } = await asSuper(b);
    for (const [email, profile] of [
      [BIA.email, 'admin'],
      ['op@proxies.test', 'user'],
    ] as const) {
      const created = await api.post('/users', { name: email.slice(0, 3), email, password: BIA.password, profile });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
    }
    for (const name of ['Session 1', 'Session 2', 'Session 3']) {
      const created = await api.post('/chatapp/', { name, provider: 'sandbox' });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
    }
    bia = client(b.url, (await login(b.url, BIA.email, BIA.password)).token);
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await httpProxy?.close();
    await socksProxy?.close();
    await target?.close();
  });

  it('adds a proxy: a port refused at its field, then a failed check explained with everything kept, then checked and saved', async () => {
    await signIn(page, b.url, BIA.email, BIA.password, '/app/proxies');
    await page.getByRole('heading', { name: 'Proxies', level: 1 }).waitFor();
    await page.getByText('No proxy yet: every connection connects directly.').waitFor();
    await page.getByTestId('proxy-pool').getByText('3 session connections have no proxy').waitFor();
    await expectAccessible(page, 'the empty proxies screen');

    await page.getByRole('button', { name: 'New proxy' }).click();
    const dialog = page.getByRole('dialog', { name: 'New proxy' });
    await dialog.getByLabel('Name', { exact: true }).fill('HTTP one');
    await dialog.getByLabel('Host', { exact: true }).fill('127.0.0.1');
    await dialog.getByLabel('Port', { exact: true }).fill('0');
    await dialog.getByLabel('User', { exact: true }).fill(CREDS.username);
    await dialog.getByLabel('Password', { exact: true }).fill('wrong-password');
    await dialog.getByLabel('Country', { exact: true }).fill('br');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The port is a number from 1 to 65535.' }).waitFor();
    expect(await dialog.getByLabel('Port', { exact: true }).getAttribute('aria-invalid')).to.equal('true');

    await dialog.getByLabel('Port', { exact: true }).fill(String(httpProxy.port));
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'No tunnel could be opened through this proxy' }).waitFor();
    expect(await dialog.getByLabel('Password', { exact: true }).inputValue(), 'nothing typed is lost').to.equal('wrong-password');
    expect(await dialog.getByLabel('Country', { exact: true }).inputValue()).to.equal('br');
    await expectAccessible(page, 'a failed check in the proxy dialog');
    await shot(page, 'proxies', 'check-failed');
    expect(await proxies(), 'nothing was saved').to.deep.equal([]);

    await dialog.getByLabel('Password', { exact: true }).fill(CREDS.password);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await outcome(page)
      .getByText(/^HTTP one was saved: a tunnel opened through it in \d+ ms\.$/)
      .waitFor();
    const http = card(page, 'HTTP one');
    await http.getByText('Healthy', { exact: true }).waitFor();
    await http.getByText('User acme, password saved').waitFor();
    await http.getByText('0 of 5 connections').waitFor();
    await http.getByText('Country BR', { exact: false }).waitFor();
    expect(await page.content()).to.not.include(CREDS.password);

    // A second proxy, added through the API: "Read again" brings it (no frame announces proxies).
    const socks = await bia.post('/proxy', { name: 'SOCKS one', protocol: 'socks5', host: '127.0.0.1', port: socksProxy.port, ...CREDS, maxConnections: 2 });
    expect(socks.status, JSON.stringify(socks.body)).to.equal(200);
    await page.getByRole('button', { name: 'Read again' }).click();
    await card(page, 'SOCKS one').getByText('0 of 2 connections').waitFor();
  });

  it('puts a connection on a chosen proxy, then gives every other one a proxy after saying what it does', async () => {
    const row = page.getByTestId(/^proxy-connection-/).filter({ hasText: 'Session 1' });
    await row.getByLabel('Proxy for Session 1').selectOption({ label: 'SOCKS one (0 of 2)' });
    await row.getByRole('button', { name: 'Apply: Session 1' }).click();
    await row.getByText(/^Session 1 now goes through SOCKS one\./).waitFor();
    await card(page, 'SOCKS one').getByText('1 of 2 connections').waitFor();

    await balance('Give every connection a proxy', 'Each session connection without a proxy gets the least-loaded usable one with room.');
    await outcome(page).getByText('2 connections moved:').waitFor();
    const moves = await outcome(page).getByRole('listitem').allTextContents();
    expect(moves).to.have.length(2);
    for (const [i, line] of moves.entries()) expect(line).to.match(new RegExp(`^Session ${i + 2}: no proxy → (HTTP one|SOCKS one)$`));
    await page.getByTestId('proxy-pool').getByText('3 of 7 places taken, 4 free').waitFor();
    await page.getByTestId('proxy-pool').getByText('0 session connections have no proxy').waitFor();
    await expectAccessible(page, 'a balancing result');
    await shot(page, 'proxies', 'balanced');
  });

  it('disables a proxy as problematic with a reason, its connections moving, then enables it again after a check', async () => {
    await card(page, 'SOCKS one').getByRole('button', { name: 'Disable as problematic' }).click();
    const dialog = page.getByRole('dialog', { name: 'Disable SOCKS one' });
    await dialog.getByText('every connection on it').waitFor();
    await dialog.getByLabel('Reason').fill('numbers banned');
    await dialog.getByRole('button', { name: 'Disable as problematic' }).click();
    await dialog.waitFor({ state: 'detached' });
    await outcome(page).getByRole('heading', { name: 'SOCKS one is disabled.' }).waitFor();
    const moved = await outcome(page).getByRole('listitem').allTextContents();
    expect(moved.length).to.be.greaterThan(0);
    for (const line of moved) expect(line).to.match(/^Session \d: SOCKS one → HTTP one$/);
    await card(page, 'SOCKS one').getByText('Disabled: numbers banned').waitFor();
    await card(page, 'HTTP one').getByText('3 of 5 connections').waitFor();

    await card(page, 'SOCKS one').getByRole('button', { name: 'Enable again' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Enable SOCKS one again?' });
    await confirm.getByText('A tunnel is opened through it first').waitFor();
    await confirm.getByRole('button', { name: 'Enable again' }).click();
    await outcome(page).getByText('SOCKS one is enabled again (Healthy).').waitFor();
    expect((await proxies()).find((p) => p.name === 'SOCKS one')).to.deep.include({ active: true, status: 'healthy' });
  });

  it('spreads the connections evenly, finds nothing on bad proxies, and connects one directly', async () => {
    await balance('Spread evenly', "only those above their proxy's share move");
    await outcome(page).getByText('1 connection moved:').waitFor();
    await balance('Move off bad proxies', 'Connections on a failing, disabled or over-full proxy move');
    await outcome(page).getByText('Nothing needed to move.').waitFor();

    const row = page.getByTestId(/^proxy-connection-/).filter({ hasText: 'Session 1' });
    await row.getByRole('button', { name: 'Connect directly: Session 1' }).click();
    await row.getByText(/^Session 1 now connects directly\./).waitFor();
    await page.getByTestId('proxy-pool').getByText('1 session connection has no proxy').waitFor();
    await row.getByRole('button', { name: 'Connect directly: Session 1' }).click();
    await row.getByText('This connection is not on a proxy.').waitFor();
  });

  it('edits a proxy keeping its password, which the form never shows', async () => {
    await card(page, 'SOCKS one').getByRole('button', { name: 'Edit SOCKS one' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit SOCKS one' });
    expect(await dialog.getByLabel('Password', { exact: true }).inputValue()).to.equal('');
    await dialog.getByText('A password is saved. Leave empty to keep it').waitFor();
    await dialog.getByLabel('Most connections at once').fill('3');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await outcome(page).getByText('SOCKS one was saved (Healthy).').waitFor();
    await card(page, 'SOCKS one')
      .getByText(/ of 3 connections$/)
      .waitFor();
    const socks = ((await bia.get('/proxy')).body as Array<ProxyRow & { maxConnections: number; hasPassword: boolean; username: string }>).find(
      (p) => p.name === 'SOCKS one',
    );
    expect(socks).to.deep.include({ maxConnections: 3, hasPassword: true, username: 'acme' });
  });

  it('deletes a proxy in use only when told to move its connections', async () => {
    const used = (await proxies()).find((p) => p.name === 'HTTP one')!;
    expect(used.assignedConnections).to.be.greaterThan(0);
    await card(page, 'HTTP one').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete HTTP one?' }).getByRole('button', { name: 'Delete' }).click();
    await outcome(page).getByText('Connections still use this proxy.').waitFor();
    const force = used.assignedConnections === 1 ? 'Delete and move its connection' : `Delete and move its ${used.assignedConnections} connections`;
    await outcome(page).getByRole('button', { name: force }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete HTTP one and move its connections?' });
    await confirm.getByText('their sessions restart').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await outcome(page).getByText('HTTP one was deleted.').waitFor();
    await card(page, 'HTTP one').waitFor({ state: 'detached' });
    expect((await proxies()).map((p) => p.name)).to.deep.equal(['SOCKS one']);
  });

  it("shows the platform's proxy read-only to the company admin, editable to the super user; keeps an operator out", async () => {
    const { api } = await asSuper(b);
    const platform = await api.post('/proxy', { name: 'Platform pool 1', protocol: 'socks5', host: '8.8.8.8', port: 1080, skipCheck: true });
    expect(platform.status, JSON.stringify(platform.body)).to.equal(200);
    await page.getByRole('button', { name: 'Read again' }).click();
    const shared = card(page, 'Platform pool 1');
    await shared.getByText("Platform's pool (read-only)").waitFor();
    await shared.getByText('Not checked yet').waitFor();
    expect(await shared.getByRole('button').count()).to.equal(0);

    const root = (await operator(browser)).page;
    await signIn(root, b.url, ADMIN.email, ADMIN.password, '/app/proxies');
    await card(root, 'Platform pool 1').getByText("Platform's pool (every company)").waitFor();
    await card(root, 'Platform pool 1').getByRole('button', { name: 'Edit Platform pool 1' }).waitFor();

    const op = (await operator(browser)).page;
    await signIn(op, b.url, 'op@proxies.test', BIA.password, '/app/proxies');
    await op.getByText('This screen is for administrators.').waitFor();
    const token = (await login(b.url, 'op@proxies.test', BIA.password)).token;
    expect((await client(b.url, token).get('/proxy')).status).to.equal(403);
  });

  it('speaks Portuguese at a phone’s width, without sideways scrolling', async () => {
    const { page: phone } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/proxies`);
    await phone.getByLabel('E-mail').fill(BIA.email);
    await phone.getByLabel('Senha').fill(BIA.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Proxies', level: 1 }).waitFor();
    await card(phone, 'SOCKS one').getByText('Saudável', { exact: true }).waitFor();
    await phone.getByRole('button', { name: 'Dar um proxy a cada conexão' }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the proxies screen in Portuguese at a phone’s width');
    await shot(phone, 'proxies', 'phone-pt-BR');
  });
});
