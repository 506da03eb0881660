import { expect } from 'chai';
import { FieldsValidationError } from '../../src/index.js';
import type { Product } from '../../src/catalog/product.js';
import { code, eventsOf, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';
import { productDraft } from '../contracts/orders-contract.js';

/** Acme with products: a tracked vase (3 on hand), an untracked card, an inactive and a dollar-priced product. */
async function shop() {
  const w = await ticketWorld();
  const add = (name: string, overrides: Partial<Product> = {}) => w.ports.products.add(productDraft(w.acme.id, name, overrides));
  const vase = await add('Vaso M', { price: 4990, sku: 'VASO-M', trackStock: true, stock: 3 });
  const card = await add('Cartão', { price: 500 });
  const gone = await add('Fora de linha', { active: false });
  const dollar = await add('Import', { currency: 'USD' });
  const theirs = await w.ports.products.add(productDraft(w.other.id, 'Deles'));
  const stockOf = async (p: Product) => (await w.ports.products.findById(w.acme.id, p.id))!.stock;
  return { ...w, vase, card, gone, dollar, theirs, stockOf };
}

const rejection = async (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

describe('Orders: taking an order', () => {
  let w: Awaited<ReturnType<typeof shop>>;
  beforeEach(async () => {
    w = await shop();
  });

  it('prices the lines from the catalog, computes the totals, takes tracked stock, numbers it and logs it', async () => {
    const t = await w.ticket();
    const order = await w.app.orders.createOrder.execute({
      actor: w.ana,
      contactId: t.contactId,
      ticketId: t.id,
      items: [
        { productId: w.vase.id, quantity: 2 },
        { productId: w.card.id, quantity: 1 },
        { productId: w.vase.id, quantity: 1 },
      ],
      discount: 500,
      shippingFee: 1500,
      notes: '  Presente ',
      address: 'Rua A, 1',
      paymentMethod: 'Pix',
    });
    expect(order).to.deep.include({
      number: 1,
      status: 'new',
      currency: 'BRL',
      contactId: t.contactId,
      ticketId: t.id,
      userId: w.ana.userId,
      user: { id: w.ana.userId, name: 'Ana' },
      subtotal: 3 * 4990 + 500,
      discount: 500,
      shippingFee: 1500,
      total: 3 * 4990 + 500 + 1500 - 500,
      notes: 'Presente',
      address: 'Rua A, 1',
      paymentMethod: 'Pix',
    });
    expect(order.items.map((i) => [i.productId, i.name, i.sku, i.unitPrice, i.quantity, i.total])).to.deep.equal([
      [w.vase.id, 'Vaso M', 'VASO-M', 4990, 3, 14970],
      [w.card.id, 'Cartão', null, 500, 1, 500],
    ]);
    expect(await w.stockOf(w.vase)).to.equal(0);
    expect(
      (await w.app.orders.createOrder.execute({ actor: w.admin, contactId: t.contactId, items: [{ productId: w.card.id, quantity: 1 }] })).number,
    ).to.equal(2);
    const logs = await w.app.orders.listOrderLogs.execute({ actor: w.bia, orderId: order.id });
    expect(logs.map((l) => [l.type, l.from, l.to, l.user?.name])).to.deep.equal([['created', null, 'new', 'Ana']]);
    expect(logs[0]!.data).to.deep.include({ currency: 'BRL', total: order.total });
    expect(eventsOf(w).filter((e) => e.startsWith('order:'))).to.deep.equal(['order:create', 'order:create']);
  });

  it("refuses another company's contact, ticket or product (404), another contact's ticket, inactive or foreign-currency products (422)", async () => {
    const t = await w.ticket();
    const foreign = await w.contact(w.other.id);
    const other = await w.ticket();
    const items = [{ productId: w.card.id, quantity: 1 }];
    const create = (input: Partial<Parameters<typeof w.app.orders.createOrder.execute>[0]>) =>
      code(w.app.orders.createOrder.execute({ actor: w.ana, contactId: t.contactId, items, ...input }));
    expect(await create({ contactId: foreign.id })).to.equal('ERR_NO_CONTACT_FOUND');
    expect(await create({ ticketId: 9999 })).to.equal('ERR_NO_TICKET_FOUND');
    expect(await create({ ticketId: other.id })).to.equal('ERR_ORDER_TICKET_CONTACT_MISMATCH');
    expect(await create({ items: [{ productId: w.theirs.id, quantity: 1 }] })).to.equal('ERR_PRODUCT_NOT_FOUND');
    expect(await create({ items: [{ productId: w.gone.id, quantity: 1 }] })).to.equal('ERR_ORDER_PRODUCT_INACTIVE');
    expect(await create({ items: [{ productId: w.dollar.id, quantity: 1 }] })).to.equal('ERR_ORDER_CURRENCY_MISMATCH');
    expect(await create({ items: [] })).to.equal('ERR_ORDER_INVALID_ITEMS');
    expect(
      await create({
        items: [
          { productId: w.card.id, quantity: 6000 },
          { productId: w.card.id, quantity: 6000 },
        ],
      }),
    ).to.equal('ERR_ORDER_INVALID_ITEMS');
    expect(await create({ discount: 2000 })).to.equal('ERR_ORDER_INVALID_AMOUNT');
    expect(await create({ shippingFee: 1.5 })).to.equal('ERR_ORDER_INVALID_AMOUNT');
    expect(await create({ paymentMethod: 'x'.repeat(51) })).to.equal('ERR_ORDER_INVALID_DETAILS');
    expect((await w.app.orders.listOrders.execute({ actor: w.admin })).count).to.equal(0);
  });

  it("in the currency of the order settings that apply: the ticket's connection's row, else the default row", async () => {
    const t = await w.ticket();
    await w.app.orders.createOrderSetting.execute({ actor: w.admin, currency: 'usd' });
    const dollars = await w.app.orders.createOrder.execute({
      actor: w.ana,
      contactId: t.contactId,
      ticketId: t.id,
      items: [{ productId: w.dollar.id, quantity: 1 }],
    });
    expect(dollars.currency).to.equal('USD');
    await w.app.orders.createOrderSetting.execute({ actor: w.admin, connectionId: w.connection.id, currency: 'BRL' });
    expect(
      await code(w.app.orders.createOrder.execute({ actor: w.ana, contactId: t.contactId, ticketId: t.id, items: [{ productId: w.dollar.id, quantity: 1 }] })),
    ).to.equal('ERR_ORDER_CURRENCY_MISMATCH');
    expect(
      (await w.app.orders.createOrder.execute({ actor: w.ana, contactId: t.contactId, items: [{ productId: w.dollar.id, quantity: 1 }] })).currency,
    ).to.equal('USD');
  });

  it('short of stock: 422 naming each product and line, and nothing written', async () => {
    const t = await w.ticket();
    const failed = await rejection(
      w.app.orders.createOrder.execute({
        actor: w.ana,
        contactId: t.contactId,
        items: [
          { productId: w.card.id, quantity: 1 },
          { productId: w.vase.id, quantity: 4 },
        ],
      }),
    );
    expect(failed).to.be.instanceOf(FieldsValidationError);
    expect((failed as FieldsValidationError).code).to.equal('ERR_ORDER_OUT_OF_STOCK');
    expect((failed as FieldsValidationError).fields).to.deep.equal([
      { path: 'items.1.quantity', message: `Not enough "Vaso M" (product ${w.vase.id}) in stock to take 4` },
    ]);
    expect(await w.stockOf(w.vase)).to.equal(3);
    expect((await w.app.orders.listOrders.execute({ actor: w.admin })).count).to.equal(0);
    expect((await w.app.orders.createOrder.execute({ actor: w.ana, contactId: t.contactId, items: [{ productId: w.vase.id, quantity: 3 }] })).number).to.equal(
      1,
    );
  });
});

describe('Orders: changing an order', () => {
  let w: Awaited<ReturnType<typeof shop>>;
  beforeEach(async () => {
    w = await shop();
  });

  const order = async (world: TicketWorld & { vase: Product; card: Product }, quantity = 2) => {
    const t = await world.ticket();
    return world.app.orders.createOrder.execute({
      actor: world.ana,
      contactId: t.contactId,
      ticketId: t.id,
      items: [
        { productId: world.vase.id, quantity },
        { productId: world.card.id, quantity: 1 },
      ],
    });
  };

  it('moves the status one step at a time, cancels only before shipping, and logs each move', async () => {
    const o = await order(w);
    const move = (status: 'new' | 'confirmed' | 'paid' | 'shipped' | 'delivered' | 'cancelled') =>
      w.app.orders.updateOrder.execute({ actor: w.bia, orderId: o.id, status });
    expect(await code(move('paid'))).to.equal('ERR_ORDER_STATUS_CONFLICT');
    for (const status of ['confirmed', 'paid', 'shipped'] as const) expect((await move(status)).status).to.equal(status);
    expect(await code(move('cancelled'))).to.equal('ERR_ORDER_STATUS_CONFLICT');
    expect(await code(move('new'))).to.equal('ERR_ORDER_STATUS_CONFLICT');
    expect((await move('delivered')).status).to.equal('delivered');
    expect(await code(move('cancelled'))).to.equal('ERR_ORDER_STATUS_CONFLICT');
    const logs = await w.app.orders.listOrderLogs.execute({ actor: w.ana, orderId: o.id });
    expect(logs.map((l) => [l.type, l.from, l.to])).to.deep.equal([
      ['created', null, 'new'],
      ['status', 'new', 'confirmed'],
      ['status', 'confirmed', 'paid'],
      ['status', 'paid', 'shipped'],
      ['status', 'shipped', 'delivered'],
    ]);
    expect(await w.stockOf(w.vase)).to.equal(1);
  });

  it('gives the stock back on cancel, once: a second cancel is a move from a status the order has left (409)', async () => {
    const o = await order(w);
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, status: 'confirmed' });
    expect(await w.stockOf(w.vase)).to.equal(1);
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, status: 'cancelled' });
    expect(await w.stockOf(w.vase)).to.equal(3);
    expect(await code(w.app.orders.updateOrder.execute({ actor: w.bia, orderId: o.id, status: 'cancelled' }))).to.equal('ERR_ORDER_STATUS_CONFLICT');
    expect(await w.stockOf(w.vase)).to.equal(3);
  });

  it('takes the status it already has sent back with another change (a form), but alone it is a repeated move (409)', async () => {
    const o = await order(w);
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, status: 'confirmed' });
    expect(await code(w.app.orders.updateOrder.execute({ actor: w.bia, orderId: o.id, status: 'confirmed' }))).to.equal('ERR_ORDER_STATUS_CONFLICT');
    expect((await w.app.orders.updateOrder.execute({ actor: w.bia, orderId: o.id, status: 'confirmed', notes: 'Embrulhar' })).notes).to.equal('Embrulhar');
    expect((await w.app.orders.updateOrder.execute({ actor: w.bia, orderId: o.id, notes: 'Embrulhar' })).notes, 'no change, no move: as it is').to.equal(
      'Embrulhar',
    );
    const logs = await w.app.orders.listOrderLogs.execute({ actor: w.ana, orderId: o.id });
    expect(logs.map((l) => [l.type, l.to])).to.deep.equal([
      ['created', 'new'],
      ['status', 'confirmed'],
      ['note', null],
    ]);
  });

  it('refuses a write based on an order that changed meanwhile (409), writing nothing', async () => {
    const o = await order(w);
    const stale = await w.ports.orders.findById(w.acme.id, o.id);
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, notes: 'first' });
    const read = w.ports.orders.findById.bind(w.ports.orders);
    w.ports.orders.findById = async () => stale;
    expect(await code(w.app.orders.updateOrder.execute({ actor: w.bia, orderId: o.id, status: 'confirmed' }))).to.equal('ERR_ORDER_STATUS_CONFLICT');
    w.ports.orders.findById = read;
    expect(await w.app.orders.showOrder.execute({ actor: w.ana, orderId: o.id })).to.deep.include({ status: 'new', notes: 'first' });
    expect((await w.app.orders.listOrderLogs.execute({ actor: w.ana, orderId: o.id })).map((l) => l.type)).to.deep.equal(['created', 'note']);
  });

  it('edits lines while new: existing lines keep their price, stock follows, totals are recomputed', async () => {
    const o = await order(w);
    await w.ports.products.update({ ...w.vase, price: 9990 });
    const bowl = await w.ports.products.add(productDraft(w.acme.id, 'Tigela', { price: 2500, trackStock: true, stock: 5 }));
    const edited = await w.app.orders.updateOrder.execute({
      actor: w.ana,
      orderId: o.id,
      items: [
        { productId: w.vase.id, quantity: 3 },
        { productId: bowl.id, quantity: 2 },
      ],
      shippingFee: 1000,
    });
    expect(edited.items.map((i) => [i.name, i.unitPrice, i.quantity, i.total])).to.deep.equal([
      ['Vaso M', 4990, 3, 14970],
      ['Tigela', 2500, 2, 5000],
    ]);
    expect([edited.subtotal, edited.shippingFee, edited.total]).to.deep.equal([19970, 1000, 20970]);
    expect([await w.stockOf(w.vase), await w.stockOf(bowl)]).to.deep.equal([0, 3]);
    expect(await code(w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, items: [{ productId: w.vase.id, quantity: 4 }] }))).to.equal(
      'ERR_ORDER_OUT_OF_STOCK',
    );
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, items: [{ productId: bowl.id, quantity: 1 }] });
    expect([await w.stockOf(w.vase), await w.stockOf(bowl)]).to.deep.equal([3, 4]);
    const log = (await w.app.orders.listOrderLogs.execute({ actor: w.ana, orderId: o.id })).filter((l) => l.type === 'items');
    expect(log.map((l) => [l.from, l.to])).to.deep.equal([
      [String(o.total), '20970'],
      ['20970', '3500'],
    ]);
  });

  it('after `new`, refuses changed lines or totals but takes the same form back with a status move; details until settled, notes always', async () => {
    const o = await order(w);
    const same = { items: o.items.map((i) => ({ productId: i.productId!, quantity: i.quantity })), discount: 0, shippingFee: 0 };
    expect((await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, ...same, status: 'confirmed' })).status).to.equal('confirmed');
    expect(await code(w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, discount: 10 }))).to.equal('ERR_ORDER_STATUS_CONFLICT');
    expect(await code(w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, items: [{ productId: w.card.id, quantity: 1 }] }))).to.equal(
      'ERR_ORDER_STATUS_CONFLICT',
    );
    expect((await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, address: 'Rua B, 2', paymentMethod: '' })).address).to.equal('Rua B, 2');
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, status: 'cancelled' });
    expect(await code(w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, address: 'Rua C' }))).to.equal('ERR_ORDER_STATUS_CONFLICT');
    expect((await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, notes: 'Cliente desistiu' })).notes).to.equal('Cliente desistiu');
    const notes = (await w.app.orders.listOrderLogs.execute({ actor: w.ana, orderId: o.id })).filter((l) => l.type === 'note').map((l) => l.data);
    expect(notes).to.deep.equal([{ address: { from: null, to: 'Rua B, 2' } }, { notes: { from: '', to: 'Cliente desistiu' } }]);
    expect(await code(w.app.orders.updateOrder.execute({ actor: w.otherAdmin, orderId: o.id, notes: 'x' }))).to.equal('ERR_NO_ORDER_FOUND');
  });

  it('admins delete orders of their company, all or none, giving back the stock of those still holding it', async () => {
    const held = await order(w, 1);
    const shipped = await order(w, 1);
    for (const status of ['confirmed', 'paid', 'shipped'] as const) await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: shipped.id, status });
    expect(await w.stockOf(w.vase)).to.equal(1);
    expect(await code(w.app.orders.deleteOrders.execute({ actor: w.ana, orderIds: [held.id] }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(w.app.orders.deleteOrders.execute({ actor: w.otherAdmin, orderIds: [held.id] }))).to.equal('ERR_NO_ORDER_FOUND');
    expect(await code(w.app.orders.deleteOrders.execute({ actor: w.admin, orderIds: [held.id, 424242] }))).to.equal('ERR_NO_ORDER_FOUND');
    expect((await w.app.orders.showOrder.execute({ actor: w.admin, orderId: held.id })).id).to.equal(held.id);
    expect(await w.app.orders.deleteOrders.execute({ actor: w.admin, orderIds: [shipped.id, held.id, held.id] })).to.deep.equal([held.id, shipped.id]);
    expect(await w.stockOf(w.vase)).to.equal(2);
    expect(w.ports.realtime.events.at(-1)).to.deep.include({ entity: 'order', data: { action: 'delete', orderIds: [held.id, shipped.id] } });
    expect(await code(w.app.orders.showOrder.execute({ actor: w.admin, orderId: held.id }))).to.equal('ERR_NO_ORDER_FOUND');
  });
});

describe('Orders: reading', () => {
  it("lists by status, contact, days on the company's clock and search; a contact's orders; other companies' ids are 404", async () => {
    const w = await shop();
    const maria = await w.contact(w.acme.id, { name: 'Maria Conceição' });
    const joao = await w.contact(w.acme.id, { name: 'João' });
    const items = [{ productId: w.card.id, quantity: 1 }];
    // 2026-01-01T12:00Z is 09:00 in São Paulo; 02:00Z on the 2nd is still 23:00 of the 1st there, 04:00Z is the 2nd.
    const first = await w.app.orders.createOrder.execute({ actor: w.ana, contactId: maria.id, items });
    w.ports.clock.advance(14 * 3_600_000);
    const second = await w.app.orders.createOrder.execute({ actor: w.ana, contactId: joao.id, items });
    w.ports.clock.advance(2 * 3_600_000);
    const third = await w.app.orders.createOrder.execute({ actor: w.ana, contactId: maria.id, items });
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: third.id, status: 'confirmed' });
    const ids = async (q: Omit<Parameters<typeof w.app.orders.listOrders.execute>[0], 'actor'>) =>
      (await w.app.orders.listOrders.execute({ actor: w.bia, ...q })).orders.map((o) => o.id);
    expect(await ids({})).to.deep.equal([third.id, second.id, first.id]);
    expect(await ids({ status: 'confirmed' })).to.deep.equal([third.id]);
    expect(await ids({ contactId: maria.id })).to.deep.equal([third.id, first.id]);
    expect(await ids({ dateFrom: '2026-01-01', dateTo: '2026-01-01' })).to.deep.equal([second.id, first.id]);
    expect(await ids({ dateFrom: '2026-01-02' })).to.deep.equal([third.id]);
    expect(await ids({ searchParam: 'CONCEICAO' })).to.deep.equal([third.id, first.id]);
    expect(await code(ids({ dateFrom: '2026-02-30' }))).to.equal('ERR_INVALID_DATE');
    expect(await code(ids({ dateFrom: '2026-01-02', dateTo: '2026-01-01' }))).to.equal('ERR_INVALID_DATE_RANGE');
    expect(await code(ids({ contactId: (await w.contact(w.other.id)).id }))).to.equal('ERR_NO_CONTACT_FOUND');
    const panel = await w.app.orders.listContactOrders.execute({ actor: w.bia, contactId: maria.id });
    expect([panel.orders.map((o) => o.id), panel.count, panel.hasMore]).to.deep.equal([[third.id, first.id], 2, false]);
    expect(panel.orders[0]!.contact).to.deep.equal({ id: maria.id, name: 'Maria Conceição', number: maria.number });
    expect(await code(w.app.orders.showOrder.execute({ actor: w.otherAdmin, orderId: first.id }))).to.equal('ERR_NO_ORDER_FOUND');
    expect(await code(w.app.orders.listOrderLogs.execute({ actor: w.otherAdmin, orderId: first.id }))).to.equal('ERR_NO_ORDER_FOUND');
  });
});
