import { expect } from 'chai';
import type { Browser, Locator, Page } from 'playwright-core';
import { eventually, sandboxDesk } from '../../../backend/test/support/sandbox-conversations.js';
import { ADMIN, type TestBackend, startTestBackend } from '../../../backend/test/support/test-backend.js';
import { expectAccessible, launchChromium, operator, prepareConsole, shot, signIn } from './support.js';

const NBSP = '\u00a0';

/**
 * The orders screens in Chromium against the real backend and a sandbox connection: the order
 * settings of the sandbox connection (a currency refused at its field, a status text previewed with
 * its variables); an order created from a conversation (a quantity beyond the stock refused at its
 * line); the order moved through its statuses by its buttons (one by keyboard), a second admin's
 * board following live and the status texts reaching the sandbox contact; a move another change
 * beat, explained; the order with its lines, totals and log; Spanish at a phone's width.
 */
describe('console: the orders screens in Chromium (skipped when /usr/bin/chromium is absent)', function () {
  this.timeout(120_000);
  let b: TestBackend;
  let desk: Awaited<ReturnType<typeof sandboxDesk>>;
  let browser: Browser;
  let page: Page;
  let other: Page;
  let ticket: { id: number; contactId: number };
  let vaseId: number;
  let plateId: number;

  const column = (p: Page, status: string) => p.getByRole('region', { name: new RegExp(`^${status} \\(`) });
  const card = (p: Page, status: string, number: number) => column(p, status).getByRole('article', { name: `Order #${number}` });
  /** A drag with the mouse, in steps, as a hand makes it. */
  const drag = async (p: Page, from: Locator, to: Locator) => {
    const a = (await from.boundingBox())!;
    const z = (await to.boundingBox())!;
    await p.mouse.move(a.x + a.width / 2, a.y + 12);
    await p.mouse.down();
    await p.mouse.move(a.x + a.width / 2 + 12, a.y + 24, { steps: 3 });
    await p.mouse.move(z.x + z.width / 2, z.y + 40, { steps: 12 });
    await p.mouse.up();
  };
  const orders = async () => (await desk.admin.get('/orders')).body.orders as Array<Record<string, any>>;

  before(async function () {
    prepareConsole(this);
    b = await startTestBackend();
    desk = await sandboxDesk(b);
    const vase = await desk.admin.post('/products', { name: 'Vaso M', price: 4990, trackStock: true, stock: 2 });
    expect(vase.status, JSON.stringify(vase.body)).to.equal(200);
    vaseId = vase.body.id;
    const plate = await desk.admin.post('/products', { name: 'Prato', price: 1500 });
    expect(plate.status, JSON.stringify(plate.body)).to.equal(200);
    plateId = plate.body.id;
    ticket = (await desk.inbound('5511966660001', 'Quero dois vasos', { senderName: 'Maria Souza' })) as { id: number; contactId: number };
    browser = await launchChromium();
    page = (await operator(browser)).page;
    other = (await operator(browser)).page;
  });
  after(async () => {
    await browser?.close();
    await b?.close();
  });

  it('sets the sandbox connection’s order settings: a currency refused at its field, a status text previewed', async () => {
    await signIn(page, b.url, ADMIN.email, ADMIN.password, '/app/orders');
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Order settings' }).click();
    await page.getByText('No settings yet: orders are in BRL and no message is sent.').waitFor();
    await page.getByRole('button', { name: 'New settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'New settings' });
    await dialog.getByLabel('Applies to').selectOption({ label: 'Sandbox' });
    await dialog.getByLabel('Currency', { exact: true }).fill('REAIS');
    await dialog.getByLabel('Payment instructions').fill('Pix: loja@example.com');
    await dialog.getByLabel('Message when Confirmed').fill('Olá {{firstName}}! Pedido #{{number}} confirmado: {{total}}.\n{{payment}}');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Write a currency code the system knows, such as BRL or USD.' }).waitFor();
    expect(await dialog.getByLabel('Currency', { exact: true }).getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Payment instructions').inputValue()).to.equal('Pix: loja@example.com');
    await dialog.getByLabel('Currency', { exact: true }).fill('BRL');
    const preview = await dialog.getByTestId('order-preview').textContent();
    expect(preview).to.equal(`Olá Maria! Pedido #42 confirmado: R$${NBSP}124,80.\nPix: loja@example.com`);
    await dialog.getByLabel('Message when Shipped').fill('Pedido #{{number}} a caminho de {{address}}.');
    expect(await dialog.getByTestId('order-preview').textContent()).to.equal('Pedido #42 a caminho de Rua das Flores, 100.');
    await expectAccessible(page, 'the order settings dialog');
    await shot(page, 'orders', 'settings');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Sandbox', level: 3 }).waitFor();
    const [setting] = (await desk.admin.get('/order-settings')).body as Array<Record<string, any>>;
    expect(setting).to.deep.include({ connectionId: desk.connectionId, currency: 'BRL', paymentInstructions: 'Pix: loja@example.com' });
    expect(setting!.statusMessages.shipped).to.equal('Pedido #{{number}} a caminho de {{address}}.');
  });

  it('creates an order from the conversation: a quantity beyond the stock refused at its line, then taken; a second admin sees it live', async () => {
    await signIn(other, b.url, ADMIN.email, ADMIN.password, '/app/orders');
    await column(other, 'New').getByText('No orders.').waitFor();
    await page.goto(`${b.url}/app/tickets/${ticket.id}`);
    await page.getByRole('button', { name: 'New order' }).click();
    const dialog = page.getByRole('dialog', { name: 'New order for Maria Souza' });
    await dialog.getByRole('button', { name: 'Add Vaso M' }).click();
    await dialog.getByRole('button', { name: 'Add Prato' }).click();
    await dialog.getByLabel('Quantity of Vaso M').fill('3');
    await dialog.getByLabel('Delivery address').fill('Rua A, 1');
    await dialog.getByRole('button', { name: 'Create the order' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'Not enough of this product in stock.' }).waitFor();
    expect(await dialog.getByLabel('Quantity of Vaso M').getAttribute('aria-invalid')).to.equal('true');
    expect(await dialog.getByLabel('Delivery address').inputValue()).to.equal('Rua A, 1');
    await expectAccessible(page, 'a refused order');
    await dialog.getByLabel('Quantity of Vaso M').fill('2');
    await dialog.getByLabel('Shipping').fill('10,00');
    await dialog.getByRole('button', { name: 'Create the order' }).click();
    await dialog.waitFor({ state: 'detached' });

    await card(other, 'New', 1)
      .getByText(/124\.80/)
      .waitFor();
    // The conversation lists the contact's orders.
    await page.getByRole('button', { name: 'Orders (1)' }).click();
    const mine = page.getByRole('dialog', { name: 'Orders of Maria Souza' });
    await mine.getByText(/^Order #1 · New · R\$\s?124\.80/).waitFor();
    await mine.getByRole('button', { name: 'Close' }).click();
    const [order] = await orders();
    expect(order).to.deep.include({ number: 1, status: 'new', subtotal: 11480, shippingFee: 1000, total: 12480, ticketId: ticket.id, address: 'Rua A, 1' });
    expect((await desk.admin.get(`/products/${vaseId}`)).body.stock).to.equal(0);
  });

  it('moves the order through its statuses by its buttons and by dragging; the other board follows and the status texts reach the contact', async () => {
    const before = desk.sent().length;
    await page.goto(`${b.url}/app/orders`);
    await card(page, 'New', 1).waitFor();
    expect(
      await card(page, 'New', 1)
        .getByRole('button', { name: /^Move to/ })
        .allTextContents(),
    ).to.deep.equal(['Move to Confirmed', 'Move to Cancelled']);
    await expectAccessible(page, 'the orders board');
    // By keyboard: the move is an ordinary button.
    await card(page, 'New', 1).getByRole('button', { name: 'Move to Confirmed: order #1' }).focus();
    await page.keyboard.press('Enter');
    await card(other, 'Confirmed', 1).waitFor();
    const told = `Olá Maria! Pedido #1 confirmado: R$${NBSP}124,80.\nPix: loja@example.com`;
    await eventually('the confirmed text at the sandbox', () =>
      desk
        .sent()
        .slice(before)
        .some((s) => s.to === '5511966660001' && s.content.body === told),
    );

    // With the mouse: a drop on a column the status machine does not allow is explained, an allowed one moves it.
    await drag(page, card(page, 'Confirmed', 1), column(page, 'Delivered'));
    await page.getByRole('alert').filter({ hasText: 'Order #1 cannot go from Confirmed to Delivered: it moves to Paid, Cancelled.' }).waitFor();
    await drag(page, card(page, 'Confirmed', 1), column(page, 'Paid'));
    await page.getByRole('status').filter({ hasText: 'Order #1 moved to Paid.' }).waitFor({ state: 'attached' });
    await card(other, 'Paid', 1).waitFor();
    await card(page, 'Paid', 1).getByRole('button', { name: 'Move to Shipped: order #1' }).click();
    await card(other, 'Shipped', 1).waitFor();
    await card(page, 'Shipped', 1).getByRole('button', { name: 'Move to Delivered: order #1' }).waitFor();
    expect(
      await card(page, 'Shipped', 1)
        .getByRole('button', { name: /^Move to/ })
        .allTextContents(),
    ).to.deep.equal(['Move to Delivered']);
    await eventually('the shipped text at the sandbox', () => desk.sent().some((s) => s.content.body === 'Pedido #1 a caminho de Rua A, 1.'));
    await card(page, 'Shipped', 1).getByRole('button', { name: 'Move to Delivered: order #1' }).click();
    await card(other, 'Delivered', 1).waitFor();
    expect(
      await card(other, 'Delivered', 1)
        .getByRole('button', { name: /^Move to/ })
        .count(),
    ).to.equal(0);
    await shot(other, 'orders', 'board');
  });

  it('explains a move another change beat, the card showing where the order is now; a delete after asking leaves both boards', async () => {
    const second = await desk.admin.post('/orders', { contactId: ticket.contactId, items: [{ productId: plateId, quantity: 1 }] });
    expect(second.status, JSON.stringify(second.body)).to.equal(201);
    await card(page, 'New', 2).waitFor();
    // Another admin cancels it between the click and the request.
    await page.route('**/orders/*', async (route) => {
      if (route.request().method() === 'PUT') await desk.admin.put(`/orders/${second.body.id}`, { status: 'cancelled' });
      await route.continue();
    });
    await card(page, 'New', 2).getByRole('button', { name: 'Move to Confirmed: order #2' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Order #2 was not moved: Someone else changed this order first, or its status does not allow this.' })
      .waitFor();
    await page.unroute('**/orders/*');
    await card(page, 'Cancelled', 2).waitFor();
    await card(other, 'Cancelled', 2).waitFor();
    await card(page, 'Cancelled', 2).getByRole('button', { name: 'Open order #2' }).click();
    const dialog = page.getByRole('dialog', { name: 'Order #2' });
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog', { name: 'Delete order #2?' }).getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'detached' });
    await card(other, 'Cancelled', 2).waitFor({ state: 'detached' });
    expect((await orders()).map((o) => o.number)).to.deep.equal([1]);
  });

  it('opens the order: its lines, totals and log, details saved', async () => {
    await card(page, 'Delivered', 1).getByRole('button', { name: 'Open order #1' }).click();
    const dialog = page.getByRole('dialog', { name: 'Order #1' });
    await dialog.getByRole('rowheader', { name: 'Vaso M' }).waitFor();
    expect(await dialog.getByTestId('order-total').textContent()).to.match(/^R\$\s?124\.80$/);
    const log = dialog.getByRole('region', { name: 'History' });
    await log.getByText('From New to Confirmed (the contact was told)').waitFor();
    await log.getByText('From Shipped to Delivered').waitFor();
    expect(await dialog.getByLabel('Delivery address').isDisabled()).to.equal(true);
    await dialog.getByLabel('Notes').fill('Entregue ao porteiro');
    await dialog.getByRole('button', { name: 'Save details' }).click();
    await dialog.getByText('Details saved.').waitFor();
    await log.getByText('Changed: notes').waitFor();
    await expectAccessible(page, 'the order dialog');
    await shot(page, 'orders', 'order');
    expect((await orders()).find((o) => o.number === 1)!.notes).to.equal('Entregue ao porteiro');
    await dialog.getByRole('button', { name: 'Close' }).last().click();
  });

  it('speaks Spanish at a phone’s width, the columns one under the other', async () => {
    const { page: phone } = await operator(browser, { locale: 'es', width: 390, height: 844 });
    await phone.goto(`${b.url}/app/orders`);
    await phone.getByLabel('Correo electrónico').fill(ADMIN.email);
    await phone.getByLabel('Contraseña').fill(ADMIN.password);
    await phone.getByRole('button', { name: 'Entrar' }).click();
    await phone.getByRole('heading', { name: 'Pedidos', level: 1 }).waitFor();
    await phone
      .getByRole('region', { name: /^Entregado \(1\)/ })
      .getByRole('article', { name: 'Pedido n.º 1' })
      .waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width, 'no sideways scrolling').to.be.at.most(390);
    await expectAccessible(phone, 'the orders board in Spanish at a phone’s width');
    await shot(phone, 'orders', 'phone-es');
  });
});
