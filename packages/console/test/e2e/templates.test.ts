import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually } from '../../../backend/test/support/sandbox-conversations.js';
import { startFakeBizchat, type FakeBizchat } from '../../../backend/test/support/fake-bizchat.js';
import { ADMIN, asSuper, client, login, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const PHONE_NUMBER_ID = '106540352242988';
const WABA_ID = '102290129340388';
const TOKEN = 'EAAbizchat-templates-token';
/** A business-API template as the provider lists it: a text header, a body with two variables, a URL button. */
const ORDER_UPDATE = {
  id: '1192339204654411',
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
  id: '530287305762211',
  name: 'promo',
  language: 'es',
  status: 'PENDING',
  category: 'MARKETING',
  components: [{ type: 'BODY', text: '¡Oferta!' }],
};
const PDF = Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

/**
 * The templates screen in Chromium against the real backend: a template with a variable inserted
 * from the help list and previewed with sample values, a taken shortcut refused at its field with
 * nothing typed lost, a second admin following creates, edits and deletes live, a file attached,
 * an operator's own personal template beside the global ones they cannot change; the business
 * API's templates of a bizchat connection (a fake Cloud API on loopback) read again from the
 * provider; Portuguese at a phone's width. The steps share one backend and one browser, in order.
 */
describe('console: the templates screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let fake: FakeBizchat;
  let browser: Browser;
  let page: Page;
  let other: Page;

  const row = (p: Page, shortcut: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name: `/${shortcut}`, exact: true }) });

  before(async function () {
    prepareConsole(this);
    fake = await startFakeBizchat(PHONE_NUMBER_ID, TOKEN, WABA_ID);
    fake.templates.set(WABA_ID, [ORDER_UPDATE, PROMO]);
    b = await startTestBackend({ META_GRAPH_URL: fake.url, OUTBOX_RELAY_INTERVAL_MS: '100' });
    const { api } = await asSuper(b);
    const second = await api.post('/users', { name: 'Bruno', email: 'bruno@templates.test', password: 'admin-pass-12', profile: 'admin' });
    expect(second.status, JSON.stringify(second.body)).to.equal(201);
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
    await fake?.close();
  });

  it('creates a template with a variable from the help list, previewed with sample values, seen live by a second admin', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/templates');
    await signIn(other, b.url, 'bruno@templates.test', 'admin-pass-12', '/app/templates');
    await page.getByRole('heading', { name: 'Templates', level: 1 }).waitFor();
    await page.getByText('No templates yet.').waitFor();
    await other.getByText('No templates yet.').waitFor();

    await page.getByRole('button', { name: 'New template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New template' });
    await dialog.getByLabel('Shortcut').fill('welcome');
    const message = dialog.getByLabel('Message', { exact: true });
    await message.fill('Hello , how can we help?');
    // The caret after "Hello ", then the variable put in there from the help list.
    await message.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(6, 6));
    await dialog.getByRole('button', { name: /^Insert \{\{firstName\}\}/ }).click();
    expect(await message.inputValue()).to.equal('Hello {{firstName}}, how can we help?');
    await dialog.getByTestId('template-preview').filter({ hasText: 'Hello Maria, how can we help?' }).waitFor();
    await dialog.getByLabel('Category').fill('Greetings');
    await dialog.getByLabel('Every operator’s (global)').check();
    await expectAccessible(page, 'the new template dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });

    await row(page, 'welcome').getByText('Everyone').waitFor();
    await row(other, 'welcome').getByText('Hello {{firstName}}, how can we help?').waitFor();
    const { api } = await asSuper(b);
    const listed = (await api.get('/company-templates')).body.templates as Array<Record<string, unknown>>;
    expect(listed.map((t) => [t.shortcut, t.message, t.category, t.global])).to.deep.equal([
      ['welcome', 'Hello {{firstName}}, how can we help?', 'Greetings', true],
    ]);
  });

  it('refuses a taken shortcut at its field, keeping what was typed, then saves with a file once corrected', async () => {
    await page.getByRole('button', { name: 'New template' }).click();
    const dialog = page.getByRole('dialog', { name: 'New template' });
    await dialog.getByLabel('Shortcut').fill('Welcome');
    await dialog.getByLabel('Message', { exact: true }).fill('Our prices, {{name}}: see the file.');
    await dialog.getByLabel('File').setInputFiles({ name: 'prices.pdf', mimeType: 'application/pdf', buffer: PDF });
    await dialog.getByRole('button', { name: 'Save' }).click();
    const shortcut = dialog.getByLabel('Shortcut');
    await dialog.getByRole('alert').filter({ hasText: 'Another template already has this shortcut.' }).waitFor();
    expect(await shortcut.getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Message', { exact: true }).inputValue()).to.equal('Our prices, {{name}}: see the file.');
    await dialog.getByTestId('template-preview').filter({ hasText: 'Our prices, Maria Silva: see the file.' }).waitFor();
    await expectAccessible(page, 'a refused template');
    await shot(page, 'templates', 'refused');

    await shortcut.fill('prices');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'prices').getByRole('link', { name: 'prices.pdf' }).waitFor();
    // Personal (not global): the second admin sees it too, as admins see every template.
    await row(other, 'prices').getByText('Personal').waitFor();
    await page.getByText('2 templates').waitFor();
  });

  it('edits and deletes: the other admin follows both live', async () => {
    await other.getByRole('button', { name: 'Edit /welcome' }).click();
    const dialog = other.getByRole('dialog', { name: 'Edit the template /welcome' });
    expect(await dialog.getByLabel('Category').inputValue()).to.equal('Greetings');
    await dialog.getByLabel('Message', { exact: true }).fill('{{ms}}, {{firstName}}! I am {{userName}}.');
    await dialog.getByTestId('template-preview').filter({ hasText: ', Maria! I am Bruno.' }).waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(page, 'welcome').getByText('{{ms}}, {{firstName}}! I am {{userName}}.').waitFor();

    await row(page, 'prices').getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Delete the template /prices?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await row(other, 'prices').waitFor({ state: 'detached' });
    await page.getByText('1 template', { exact: true }).waitFor();
  });

  it('an operator creates a personal template and cannot change the global ones; the server refuses them a global one', async () => {
    const { api } = await asSuper(b);
    expect((await api.post('/users', { name: 'Ana', email: 'ana@templates.test', password: 'operator-pass-1' })).status).to.equal(201);
    const ana = (await operator(browser)).page;
    await signIn(ana, b.url, 'ana@templates.test', 'operator-pass-1', '/app/templates');
    await row(ana, 'welcome').waitFor();
    expect(await row(ana, 'welcome').getByRole('button').count(), 'no edit nor delete on a global template').to.equal(0);
    await ana.getByRole('button', { name: 'New template' }).click();
    const dialog = ana.getByRole('dialog', { name: 'New template' });
    expect(await dialog.getByLabel('Every operator’s (global)').count(), 'no global switch for an operator').to.equal(0);
    await dialog.getByLabel('Shortcut').fill('my-sign-off');
    await dialog.getByLabel('Message', { exact: true }).fill('Have a nice day!');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await row(ana, 'my-sign-off').getByRole('button', { name: 'Edit /my-sign-off' }).waitFor();
    // Admins see an operator's personal template; the operator's frame reached them live.
    await row(page, 'my-sign-off').getByText('Personal').waitFor();
    const token = (await login(b.url, 'ana@templates.test', 'operator-pass-1')).token;
    const refused = await client(b.url, token).post('/company-templates', { shortcut: 'all', message: 'x', global: true });
    expect(refused).to.deep.include({ status: 403 });
    await ana.context().close();
  });

  it("lists a bizchat connection's business templates with their status, read again from the provider on demand", async () => {
    const { api } = await asSuper(b);
    const created = await api.post('/chatapp/', {
      name: 'Official',
      kind: 'bizchat',
      externalId: PHONE_NUMBER_ID,
      secrets: { accessToken: TOKEN, wabaId: WABA_ID },
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    await page.reload();
    const section = page.getByRole('region', { name: 'Business API templates' });
    const order = section.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'order_update' }) });
    await order.getByText('Approved').waitFor();
    await order.getByText('Utility').waitFor();
    await order.getByText('4 values to fill').waitFor();
    const promo = section.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'promo' }) });
    await promo.getByText('Pending review').waitFor();
    const listedBefore = fake.listed;

    // WhatsApp approves it meanwhile: the stored list is young, so only a refresh reads it again.
    fake.templates.set(WABA_ID, [ORDER_UPDATE, { ...PROMO, status: 'APPROVED' }]);
    await section.getByRole('button', { name: 'Read again from WhatsApp' }).click();
    await promo.getByText('Approved').waitFor();
    expect(fake.listed).to.equal(listedBefore + 1);
    await page.getByRole('status').filter({ hasText: 'The templates were read again from WhatsApp.' }).waitFor();
    await expectAccessible(page, 'the templates screen with the business templates');
    await shot(page, 'templates', 'list');
  });

  it('sends an approved business template with its values to a number through the Cloud API, a bad number refused at its field first', async () => {
    const { api } = await asSuper(b);
    const [connection] = ((await api.get('/chatapp/')).body as Array<{ id: number; channel: string }>).filter((c) => c.channel === 'bizchat');
    await eventually('the number to connect', async () => (await api.get(`/chatapp/${connection!.id}`)).body.status === 'CONNECTED');
    const section = page.getByRole('region', { name: 'Business API templates' });
    await section.getByRole('button', { name: 'Send to a number: order_update (pt_BR)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send order_update (pt_BR)' });
    await dialog.getByLabel('Number').fill('12 34');
    await dialog.getByLabel('Header value 1').fill('#7');
    await dialog.getByLabel('Value of variable 1').fill('Maria');
    await dialog.getByLabel('Value of variable 2').fill('Recife');
    await dialog.getByLabel('Value for button 1').fill('7');
    expect(await dialog.getByTestId('bizchat-preview').textContent()).to.equal('Pedido #7\nOlá Maria, seu pedido saiu para entrega em Recife.');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'The number must have 8 to 15 digits' }).waitFor();
    expect(await dialog.getByLabel('Number').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Value of variable 2').inputValue(), 'nothing typed lost').to.equal('Recife');
    await expectAccessible(page, 'the template send refused at its number');
    expect(fake.sent).to.have.length(0);

    await dialog.getByLabel('Number').fill('+55 11 97777-6666');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    await section.getByTestId('bizchat-sent').filter({ hasText: 'The template order_update was sent.' }).waitFor();
    await eventually('the template at the provider', () => fake.sent.length === 1);
    const sent = fake.sent[0]!.body;
    expect(sent).to.deep.include({ to: '5511977776666', type: 'template' });
    expect(sent.template.name).to.equal('order_update');
    expect(sent.template.components.map((c: { type: string; parameters: Array<{ text: string }> }) => [c.type, c.parameters.map((p) => p.text)])).to.deep.equal(
      [
        ['header', ['#7']],
        ['body', ['Maria', 'Recife']],
        ['button', ['7']],
      ],
    );
    await section.getByRole('link', { name: 'Open the conversation' }).click();
    await page.getByTestId('messages').getByText('Olá Maria, seu pedido saiu para entrega em Recife.', { exact: false }).waitFor();
    await page.goto(`${b.url}/app/templates`);
  });

  it('speaks Portuguese at a phone’s width', async () => {
    const { page: phone } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/templates`);
    await phone.getByLabel('E-mail').fill(ADMIN.email);
    await phone.getByLabel('Senha').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Modelos', level: 1 }).waitFor();
    await row(phone, 'welcome').getByText('Todos').waitFor();
    await phone.getByRole('button', { name: 'Novo modelo' }).click();
    const dialog = phone.getByRole('dialog', { name: 'Novo modelo' });
    await dialog.getByLabel('Mensagem', { exact: true }).fill('Oi {{firstName}}');
    await dialog.getByTestId('template-preview').filter({ hasText: 'Oi Maria' }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the template dialog in Portuguese at a phone’s width');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await eventually('the dialog closed', async () => (await phone.getByRole('dialog').count()) === 0);
  });
});
