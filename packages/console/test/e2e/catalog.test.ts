import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);

/**
 * The catalog screen in Chromium against the real backend and a sandbox connection: a category and
 * a product with its image created and followed live by a second admin; an unreadable price and a
 * taken SKU refused at their fields with nothing typed lost; a CSV import with its refused row; the
 * product sent from a conversation reaching the sandbox contact; an operator without the buttons;
 * Portuguese at a phone's width. The steps share one backend and one browser, in order.
 */
describe('console: the catalog screen in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let ticketId: number;

  const row = (p: Page, name: string) => p.getByRole('row').filter({ has: p.getByRole('rowheader', { name, exact: true }) });
  /** The backend's public files are addressed as http://files.test (`PUBLIC_URL`): each browser gets them from the backend. */
  const serveFiles = (p: Page) =>
    p.route('http://files.test/**', async (route) => {
      const res = await fetch(`${b.url}${new URL(route.request().url()).pathname}`);
      await route.fulfill({
        status: res.status,
        body: Buffer.from(await res.arrayBuffer()),
        headers: { 'content-type': res.headers.get('content-type') ?? '' },
      });
    });
  const products = async () => (await desk.admin.get('/products')).body.products as Array<Record<string, any>>;

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend({ PUBLIC_URL: 'http://files.test' });
    desk = await sandboxDesk(b);
    ticketId = (await desk.inbound('5511988887777', 'Hello, what do you sell?', { senderName: 'Maria Souza' })).id;
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
    await serveFiles(page);
    await serveFiles(other);
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('an admin adds a category and a product with its image; a second admin sees both live', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/catalog');
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/catalog');
    await page.getByRole('heading', { name: 'Catalog', level: 1 }).waitFor();
    await page.getByText('No products yet.').waitFor();
    await expectAccessible(page, 'the empty catalog');

    await page.getByRole('button', { name: 'New category' }).click();
    const categoryDialog = page.getByRole('dialog', { name: 'New category' });
    await categoryDialog.getByLabel('Name').fill('Vasos');
    await categoryDialog.getByRole('button', { name: 'Save' }).click();
    await categoryDialog.waitFor({ state: 'detached' });
    await other.getByRole('navigation', { name: 'Categories' }).getByRole('button', { name: 'Vasos (0)' }).waitFor();

    await page.getByRole('button', { name: 'New product' }).click();
    const dialog = page.getByRole('dialog', { name: 'New product' });
    await dialog.getByLabel('Name').fill('Vaso 20 cm');
    await dialog.getByLabel('Price').fill('49,90');
    await dialog.getByLabel('SKU').fill('VASO-20');
    await dialog.getByLabel('Count the stock').check();
    await dialog.getByLabel('Units in stock').fill('5');
    expect(await dialog.getByLabel('Category').locator('option:checked').textContent()).to.equal('Vasos');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved. You can add its images now.').waitFor();
    await dialog.getByLabel('Add images').setInputFiles({ name: 'vaso.png', mimeType: 'image/png', buffer: PNG });
    await dialog.getByRole('img', { name: 'Image 1 of Vaso 20 cm' }).waitFor();
    await dialog.getByText('1 of 10 images.').waitFor();
    await expectAccessible(page, 'the product dialog with its image');
    await shot(page, 'catalog', 'product-dialog');
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await row(other, 'Vaso 20 cm')
      .getByText(/49\.90/)
      .waitFor();
    const picture = row(other, 'Vaso 20 cm').getByRole('img', { name: 'Picture of Vaso 20 cm' });
    await picture.waitFor();
    await eventually('the picture to load', () => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0));
    await other.getByRole('button', { name: 'Vasos (1)' }).waitFor();
    const [saved] = await products();
    expect(saved).to.deep.include({ name: 'Vaso 20 cm', price: 4990, currency: 'BRL', sku: 'VASO-20', stock: 5, trackStock: true, active: true });
    expect(saved!.category.name).to.equal('Vasos');
    expect(saved!.images).to.have.length(1);
  });

  it('refuses an unreadable price and a taken SKU at their fields, keeping what was typed; a delete after asking leaves both screens', async () => {
    await page.getByRole('button', { name: 'New product' }).click();
    const dialog = page.getByRole('dialog', { name: 'New product' });
    await dialog.getByLabel('Name').fill('Vaso 30 cm');
    await dialog.getByLabel('Price').fill('cinquenta');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Write the price as an amount, such as 12.50.' }).waitFor();
    expect(await dialog.getByLabel('Price').getAttribute('aria-invalid')).to.equal('true');

    await dialog.getByLabel('Price').fill('59.90');
    await dialog.getByLabel('SKU').fill('VASO-20');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Another product already has this SKU.' }).waitFor();
    expect(await dialog.getByLabel('SKU').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Name').inputValue()).to.equal('Vaso 30 cm');
    expect(await dialog.getByLabel('Price').inputValue()).to.equal('59.90');
    await expectAccessible(page, 'a refused product');
    await dialog.getByLabel('SKU').fill('VASO-30');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('Saved. You can add its images now.').waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await row(other, 'Vaso 30 cm').waitFor();

    await row(page, 'Vaso 30 cm').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete the product Vaso 30 cm?' }).getByRole('button', { name: 'Delete' }).click();
    await row(other, 'Vaso 30 cm').waitFor({ state: 'detached' });
    expect((await products()).map((p) => p.name)).to.deep.equal(['Vaso 20 cm']);
  });

  it('imports a CSV: the progress, the refused row with its column and reason, the new category live', async () => {
    await page.getByRole('button', { name: 'Import' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import products' });
    const csv = 'name,price,sku,category\nPrato fundo,"15,00",PRATO-1,Pratos\nSem preço,,X-1,\n';
    await dialog.getByLabel('File').setInputFiles({ name: 'produtos.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByTestId('import-state').filter({ hasText: 'Done: 1 created, 0 updated, 0 skipped, 1 refused.' }).waitFor();
    const refused = dialog.getByRole('table', { name: '1 row refused' });
    expect(await refused.getByRole('rowheader').allTextContents()).to.deep.equal(['3']);
    await refused.getByRole('cell', { name: 'price', exact: true }).waitFor();
    await refused.getByText('Write the price as an amount, such as 12.50.').waitFor();
    await expectAccessible(page, 'an import report');
    await shot(page, 'catalog', 'import');
    await dialog.getByRole('button', { name: 'Close' }).click();
    await other.getByRole('button', { name: 'Pratos (1)' }).waitFor();
    await other.getByRole('button', { name: 'All products' }).click();
    await row(other, 'Prato fundo').waitFor();
  });

  it('sends the product from a conversation: a choice is required, then the catalog reaches the sandbox contact', async () => {
    const before = desk.sent().length;
    await page.goto(`${b.url}/app/tickets/${ticketId}`);
    await page.getByRole('button', { name: 'Share the catalog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share the catalog' });
    await dialog.getByRole('checkbox', { name: /Vaso 20 cm/ }).waitFor();
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Choose 1 to 30 active products, or a category that has any.' }).waitFor();
    await dialog.getByRole('checkbox', { name: /Vaso 20 cm/ }).check();
    await dialog.getByLabel('Introduction').fill('Our vases:');
    await expectAccessible(page, 'the send-the-catalog dialog');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await dialog.waitFor({ state: 'detached' });
    const sent = await eventually('the catalog to reach the sandbox', () => desk.sent().length >= before + 2 && desk.sent().slice(before));
    expect(sent.map((s) => s.content.body)).to.deep.equal(['Our vases:', `*Vaso 20 cm* — ${sent[1]!.content.body.split(' — ')[1]}`]);
    expect(sent[1]!.content.body).to.match(/^\*Vaso 20 cm\* — R\$\s49,90$/);
    expect(sent[1]!.content.media?.contentType).to.equal('image/png');
    await page.getByText('Our vases:').waitFor();
  });

  it('an operator reads the catalog without the buttons that change it', async () => {
    const { page: ana } = await operator(browser);
    await signIn(ana, b.url, 'ana@desk.test', 'operator-pass-1', '/app/catalog');
    await row(ana, 'Vaso 20 cm').waitFor();
    await ana.getByText('Only administrators change the catalog.').waitFor();
    expect(await ana.getByRole('button', { name: 'New product' }).count()).to.equal(0);
    expect(await ana.getByRole('button', { name: 'Import' }).count()).to.equal(0);
    expect(await ana.getByRole('button', { name: 'Edit Vaso 20 cm' }).count()).to.equal(0);
  });

  it('speaks Portuguese at a phone’s width', async () => {
    const { page: phone } = await operator(browser, { locale: 'pt-BR', width: 390, height: 844 });
    await serveFiles(phone);
    await phone.goto(`${b.url}/app/catalog`);
    await phone.getByLabel('E-mail').fill(ADMIN.email);
    await phone.getByLabel('Senha').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Catálogo', level: 1 }).waitFor();
    await row(phone, 'Vaso 20 cm')
      .getByText(/R\$\s49,90/)
      .waitFor();
    await phone.getByRole('button', { name: 'Novo produto' }).waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the catalog in Portuguese at a phone’s width');
    await shot(phone, 'catalog', 'phone-pt-BR');
  });
});
