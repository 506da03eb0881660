import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { ADMIN, asSuper, client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

interface Hit {
  path: string;
  headers: IncomingHttpHeaders;
  body: { event?: string; integration?: { name: string; type: string } };
}
interface IntegrationBody {
  id: number;
  name: string;
  type: string;
  url: string;
  config: Record<string, unknown>;
  hasToken: boolean;
  hasSecret: boolean;
}

/**
 * The queue integrations screen in Chromium against the real backend (private addresses allowed,
 * so the integration can point at a loopback server this test runs): an admin creates an n8n
 * integration, tests it from the form (the loopback server receives the test event with its
 * token) while a second admin's browser follows live; a bad address is refused at its field; an
 * edit keeps the saved token; a queue using it is listed and its dialog links here; delete after
 * asking; an operator is neither offered the screen nor let in; Spanish at a phone's width; no
 * serious accessibility violation. The steps share one backend and one browser.
 */
describe('console: the queue integrations screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(180_000);
  let b: TestBackend;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let hook: Server;
  let hookUrl: string;
  const hits: Hit[] = [];
  const waiters: Array<() => void> = [];
  let integrationId: number;

  /** The next request the loopback server receives after `count` were seen. */
  const hitAfter = async (count: number): Promise<Hit> => {
    while (hits.length <= count) await new Promise<void>((resolve) => waiters.push(resolve));
    return hits[count]!;
  };
  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });
  const stored = async () => {
    const { api } = await asSuper(b);
    return (await api.get('/queueIntegration')).body.queueIntegrations as IntegrationBody[];
  };

  before(async function () {
    prepareConsole(this);
    hook = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      req.on('end', () => {
        hits.push({ path: req.url ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : {} });
        for (const wake of waiters.splice(0)) wake();
        res.writeHead(req.url === '/broken' ? 500 : 200, { 'content-type': 'application/json' });
        res.end('{"received":true}');
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`;
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true' });
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await new Promise((resolve) => hook?.close(resolve));
  });

  it('an admin creates an n8n integration, tests it against a loopback server, and a second admin sees it appear live', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/queue-integrations');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/queue-integrations');
    await page.getByRole('heading', { name: 'Queue integrations', level: 1 }).waitFor();
    await page.getByText('No integrations yet.').waitFor();
    await other.getByText('No integrations yet.').waitFor();
    await expectAccessible(page, 'the empty integrations screen');

    await page.getByRole('button', { name: 'New integration' }).click();
    const dialog = page.getByRole('dialog', { name: 'New integration' });
    await dialog.getByLabel('Name', { exact: true }).fill('Sales bot');
    await dialog.getByLabel('Type', { exact: true }).selectOption('typebot');
    // Only the chosen type's settings are offered.
    await dialog.getByLabel('Typebot name (slug)').waitFor();
    expect(await dialog.getByLabel('Project name').count()).to.equal(0);
    await dialog.getByLabel('Type', { exact: true }).selectOption('n8n');
    await dialog.getByLabel('Typebot name (slug)').waitFor({ state: 'detached' });
    await dialog.getByLabel('Address (URL)').fill(`${hookUrl}/hook`);
    await dialog.getByLabel('Token', { exact: true }).fill('n8n-token-123');
    await expectAccessible(page, 'the new integration dialog');

    // Test calls the address with the form's values before anything is saved.
    const seen = hits.length;
    await dialog.getByRole('button', { name: 'Test' }).click();
    await dialog.getByRole('status').filter({ hasText: 'It answered 200: the integration works.' }).waitFor();
    const hit = await hitAfter(seen);
    expect(hit.path).to.equal('/hook');
    expect(hit.headers.authorization).to.equal('Bearer n8n-token-123');
    expect(hit.body).to.deep.include({ event: 'test' });
    expect(hit.body.integration).to.deep.include({ name: 'Sales bot', type: 'n8n' });
    expect(await stored()).to.deep.equal([]);

    // A failing address says what it answered.
    await dialog.getByLabel('Address (URL)').fill(`${hookUrl}/broken`);
    await dialog.getByRole('button', { name: 'Test' }).click();
    await dialog.getByRole('status').filter({ hasText: 'It answered 500: the integration refused the test.' }).waitFor();

    await dialog.getByLabel('Address (URL)').fill(`${hookUrl}/hook`);
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'Sales bot').getByText(`${hookUrl}/hook`).waitFor();
    await row(other, 'Sales bot').getByText('Credentials: token').waitFor();
    const [saved] = await stored();
    expect(saved).to.include({ name: 'Sales bot', type: 'n8n', url: `${hookUrl}/hook`, hasToken: true, hasSecret: false });
    integrationId = saved!.id;
  });

  it('refuses a bad address at its field, keeping what was typed', async () => {
    await page.getByRole('button', { name: 'Edit Sales bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the integration Sales bot' });
    const address = dialog.getByLabel('Address (URL)');
    await address.fill('ftp://files.example.com/bot');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The address must be a full http:// or https:// address' }).waitFor();
    expect(await address.getAttribute('aria-invalid')).to.equal('true');
    expect(await address.inputValue()).to.equal('ftp://files.example.com/bot');
    await expectAccessible(page, 'the integration dialog with a refused address');
    await shot(page, 'queue-integrations', 'refused-address');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await stored())[0]!.url).to.equal(`${hookUrl}/hook`);
  });

  it('an edit with the token left empty keeps the saved one, and the second admin sees the change live', async () => {
    await page.getByRole('button', { name: 'Edit Sales bot' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit the integration Sales bot' });
    const token = dialog.getByLabel('Token', { exact: true });
    expect(await token.inputValue(), 'a saved credential is never shown').to.equal('');
    await dialog.getByText('One is saved: leave empty to keep it').first().waitFor();
    await dialog.getByLabel('Name', { exact: true }).fill('Sales flow');
    await dialog.getByLabel('Type', { exact: true }).selectOption('dialogflow');
    await dialog.getByLabel('Project name').fill('sales-agent');
    await dialog.getByLabel('Language').fill('en');
    await dialog.getByLabel('Signing secret').fill('whsec-42');

    // Testing a saved integration uses its stored token when none is typed.
    const seen = hits.length;
    await dialog.getByRole('button', { name: 'Test' }).click();
    await dialog.getByRole('status').filter({ hasText: 'It answered 200' }).waitFor();
    expect((await hitAfter(seen)).headers.authorization).to.equal('Bearer n8n-token-123');

    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(other, 'Sales flow').getByText('Dialogflow').waitFor();
    await row(other, 'Sales flow').getByText('Credentials: token, secret').waitFor();
    expect(await row(other, 'Sales bot').count()).to.equal(0);
    const [changed] = await stored();
    expect(changed).to.include({ id: integrationId, name: 'Sales flow', type: 'dialogflow', hasToken: true, hasSecret: true });
    expect(changed!.config).to.deep.equal({ projectName: 'sales-agent', language: 'en' });
  });

  it('lists the queues using it, the queue dialog links here, and a delete asks first and reaches the second admin', async () => {
    const { api } = await asSuper(b);
    const queue = await api.post('/queue', { name: 'Support', color: '#3b82f6', integrationId });
    expect(queue.status, JSON.stringify(queue.body)).to.equal(201);
    await row(page, 'Sales flow').getByText('Support').waitFor();

    await page.goto(`${b.url}/app/queues`);
    await page.getByRole('button', { name: 'New queue' }).click();
    await page.getByRole('dialog', { name: 'New queue' }).getByRole('link', { name: 'Manage integrations' }).click();
    await page.getByRole('heading', { name: 'Queue integrations', level: 1 }).waitFor();
    await row(page, 'Sales flow').getByText('Support').waitFor();

    await row(page, 'Sales flow').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the integration Sales flow?' });
    await confirm.getByText('The queues Support use it: they keep going without it').waitFor();
    await expectAccessible(page, 'the delete confirmation');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No integrations yet.').waitFor();
    await other.getByText('No integrations yet.').waitFor();
    expect((await api.get(`/queueIntegration/${integrationId}`)).status).to.equal(404);
    const support = ((await api.get('/queue')).body as Array<{ name: string; integrationId: number | null }>).find((q) => q.name === 'Support');
    expect(support?.integrationId).to.equal(null);
  });

  it('an operator is neither offered the screen nor let in', async () => {
    const { api } = await asSuper(b);
    const created = await api.post('/users', { name: 'Otto Operator', email: 'otto@integrations.test', password: 'operator-pass-1' });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    const otto = (await operator(browser)).page;
    await signIn(otto, b.url, 'otto@integrations.test', 'operator-pass-1');
    await otto.getByRole('button', { name: 'Manage' }).click();
    await otto.getByRole('menuitem', { name: 'Tags' }).waitFor();
    expect(await otto.getByRole('menuitem', { name: 'Integrations' }).count()).to.equal(0);
    await otto.keyboard.press('Escape');
    await otto.goto(`${b.url}/app/queue-integrations`);
    await otto.getByText('Only administrators manage integrations.').waitFor();
    const token = (await login(b.url, 'otto@integrations.test', 'operator-pass-1')).token;
    expect((await client(b.url, token).get('/queueIntegration')).status).to.equal(403);
  });

  it('speaks Spanish, and at a phone’s width each integration is a card and the form fits', async () => {
    const { api } = await asSuper(b);
    const made = await api.post('/queueIntegration', {
      name: 'Typebot de ventas',
      type: 'typebot',
      url: `${hookUrl}/a-rather-long-path/that-should-wrap/inside-the-card/without-widening-the-page`,
      typebotSlug: 'ventas',
    });
    expect(made.status, JSON.stringify(made.body)).to.equal(201);
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/queue-integrations`);
    await phone.getByLabel('Correo electrónico').fill(ADMIN.email);
    await phone.getByLabel('Contraseña').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Integraciones de las colas', level: 1 }).waitFor();
    await row(phone, 'Typebot de ventas').getByText('Ninguna').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the integrations screen in Spanish at a phone’s width');
    await shot(phone, 'queue-integrations', 'phone-es');
    await phone.getByRole('button', { name: 'Editar Typebot de ventas' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Editar la integración Typebot de ventas' });
    expect(await dialog.getByLabel('Nombre del Typebot (slug)').inputValue()).to.equal('ventas');
    await dialog.getByRole('button', { name: 'Probar' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Respondió 200: la integración funciona.' }).waitFor();
    await expectAccessible(phone, 'the integration dialog in Spanish at a phone’s width');
    await shot(phone, 'queue-integrations', 'phone-dialog-es');
  });
});
