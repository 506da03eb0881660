import { expect } from 'chai';
import type { Companies, Connections, Contacts, Plans, Tickets, Users } from '../../src/index.js';
import type { Products } from '../../src/catalog/ports.js';
import type { NewProduct } from '../../src/catalog/product.js';
import type { NewOrder, NewOrderItem } from '../../src/orders/order.js';
import type { NewOrderSetting } from '../../src/orders/order-setting.js';
import type { OrderLogs, Orders, OrderSettings } from '../../src/orders/ports.js';
import { connectionFixture, contactDraft, ticketDraft } from './messaging-contract.js';
import { twoCompanies, userFixture } from './repositories-contract.js';

export interface OrdersFixture {
  readonly orders: Orders;
  readonly orderLogs: OrderLogs;
  readonly orderSettings: OrderSettings;
  readonly products: Products;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly contacts: Contacts;
  readonly connections: Connections;
  readonly tickets: Tickets;
  readonly users: Users;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

export function productDraft(companyId: number, name: string, overrides: Partial<NewProduct> = {}): NewProduct {
  return {
    companyId,
    name,
    description: '',
    sku: null,
    price: 1000,
    currency: 'BRL',
    stock: 0,
    trackStock: false,
    active: true,
    categoryId: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function orderDraft(companyId: number, number: number, overrides: Partial<NewOrder> = {}): NewOrder {
  return {
    companyId,
    number,
    contactId: null,
    ticketId: null,
    userId: null,
    status: 'new',
    currency: 'BRL',
    subtotal: 2000,
    discount: 0,
    shippingFee: 0,
    total: 2000,
    paymentMethod: null,
    notes: '',
    address: null,
    version: 1,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function settingDraft(companyId: number, connectionId: number | null, overrides: Partial<NewOrderSetting> = {}): NewOrderSetting {
  return {
    companyId,
    connectionId,
    currency: 'BRL',
    paymentInstructions: '',
    statusMessages: { confirmed: 'ok {{number}}', paid: '', shipped: '', delivered: '', cancelled: '' },
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

const plain = <T extends object>(row: T | null) => (row ? { ...row } : row);
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

/** One suite for every adapter of the Orders, OrderLogs and OrderSettings ports. */
export function describeOrdersContract(name: string, make: () => Promise<OrdersFixture>) {
  describe(`Orders repository contract: ${name}`, () => {
    let r: OrdersFixture;
    let c1: number;
    let c2: number;
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      [c1, c2] = await twoCompanies(r);
    }

    const line = (companyId: number, orderId: number, productId: number | null, position: number, overrides: Partial<NewOrderItem> = {}): NewOrderItem => ({
      companyId,
      orderId,
      productId,
      name: `Item ${position}`,
      sku: null,
      unitPrice: 1000,
      quantity: 2,
      total: 2000,
      reserved: 0,
      position,
      ...overrides,
    });

    it('stores every field as given (amounts past int4 too) and finds an order only within its company', async () => {
      await given();
      const contact = await r.contacts.add(contactDraft(c1, '5511999990001'));
      const connection = await r.connections.add(connectionFixture(c1, 'Loja'));
      const ticket = (
        await r.tickets.getOrCreateActive(
          ticketDraft({ companyId: c1, contactId: contact.id, connectionId: connection.id, uuid: '00000000-0000-4000-8000-0000000000a1' }),
        )
      ).ticket;
      const user = await r.users.add(userFixture(c1, 'ana@one.test'));
      const added = await r.orders.add(
        orderDraft(c1, 1, {
          contactId: contact.id,
          ticketId: ticket.id,
          userId: user.id,
          status: 'confirmed',
          subtotal: 123_456_789_012,
          discount: 12,
          shippingFee: 1500,
          total: 123_456_790_500,
          paymentMethod: 'Pix',
          notes: 'Presente',
          address: 'Rua A, 1',
          version: 3,
          updatedAt: at(5),
        }),
      );
      expect(plain(await r.orders.findById(c1, added.id))).to.deep.equal(added);
      expect(await r.orders.findById(c2, added.id)).to.equal(null);
    });

    it('hands out numbers per company, from 1, never twice', async () => {
      await given();
      expect([await r.orders.nextNumber(c1), await r.orders.nextNumber(c1), await r.orders.nextNumber(c2), await r.orders.nextNumber(c1)]).to.deep.equal([
        1, 2, 1, 3,
      ]);
    });

    it('updates only on the status and version it was based on, bumping the version and keeping what creation fixed', async () => {
      await given();
      const added = await r.orders.add(orderDraft(c1, 1));
      const next = {
        ...added,
        status: 'confirmed' as const,
        discount: 100,
        total: 1900,
        notes: 'n',
        address: 'x',
        paymentMethod: 'Pix',
        updatedAt: at(1),
        number: 99,
        currency: 'USD',
      };
      expect(await r.orders.update({ ...next, companyId: c2 }, { status: 'new', version: 1 })).to.equal(false);
      expect(await r.orders.update(next, { status: 'new', version: 2 })).to.equal(false);
      expect(await r.orders.update(next, { status: 'confirmed', version: 1 })).to.equal(false);
      expect(await r.orders.update(next, { status: 'new', version: 1 })).to.equal(true);
      expect(plain(await r.orders.findById(c1, added.id))).to.deep.equal({ ...next, number: 1, currency: 'BRL', version: 2 });
      expect(await r.orders.update({ ...next, status: 'paid' }, { status: 'new', version: 1 })).to.equal(false);
    });

    it("replaces an order's lines and reads them by order then position, within the company", async () => {
      await given();
      const product = await r.products.add(productDraft(c1, 'Vaso'));
      const a = await r.orders.add(orderDraft(c1, 1));
      const b = await r.orders.add(orderDraft(c1, 2));
      const first = await r.orders.replaceItems(c1, a.id, [
        line(c1, a.id, product.id, 0, { sku: 'V-1', reserved: 2 }),
        line(c1, a.id, null, 1, { unitPrice: 250_000_000_000, total: 500_000_000_000 }),
      ]);
      expect(first.map((i) => i.position)).to.deep.equal([0, 1]);
      await r.orders.replaceItems(c1, b.id, [line(c1, b.id, product.id, 0)]);
      const replaced = await r.orders.replaceItems(c1, a.id, [line(c1, a.id, product.id, 0, { quantity: 5, total: 5000 })]);
      const read = await r.orders.items(c1, [b.id, a.id]);
      expect(read.map((i) => [i.orderId, i.position, i.quantity])).to.deep.equal([
        [a.id, 0, 5],
        [b.id, 0, 2],
      ]);
      expect(read.find((i) => i.orderId === a.id)).to.deep.equal(replaced[0]);
      expect(await r.orders.items(c2, [a.id])).to.deep.equal([]);
      expect(await r.orders.items(c1, [])).to.deep.equal([]);
    });

    it('lists newest first by status, contact, creation time and search (number, contact name folded, contact number), paged', async () => {
      await given();
      const maria = await r.contacts.add(contactDraft(c1, '5511988887777', { name: 'Maria Conceição' }));
      const joao = await r.contacts.add(contactDraft(c1, '5521977776666', { name: 'João' }));
      const o1 = await r.orders.add(orderDraft(c1, 1, { contactId: maria.id, createdAt: at(0) }));
      const o2 = await r.orders.add(orderDraft(c1, 2, { contactId: joao.id, status: 'paid', createdAt: at(60) }));
      const o3 = await r.orders.add(orderDraft(c1, 3, { contactId: maria.id, status: 'paid', createdAt: at(120) }));
      await r.orders.add(orderDraft(c2, 1, { createdAt: at(0) }));
      const ids = async (q: Partial<Parameters<Orders['list']>[0]>) =>
        (await r.orders.list({ companyId: c1, page: { offset: 0, limit: 20 }, ...q })).rows.map((o) => o.id);
      expect(await ids({})).to.deep.equal([o3.id, o2.id, o1.id]);
      expect(await ids({ status: 'paid' })).to.deep.equal([o3.id, o2.id]);
      expect(await ids({ contactId: maria.id })).to.deep.equal([o3.id, o1.id]);
      expect(await ids({ from: at(60), to: at(120) })).to.deep.equal([o2.id]);
      expect(await ids({ search: 'conceicao' })).to.deep.equal([o3.id, o1.id]);
      expect(await ids({ search: '2' })).to.deep.equal([o2.id]);
      expect(await ids({ search: '21977' })).to.deep.equal([o2.id]);
      expect(await ids({ search: '99999999999999' })).to.deep.equal([]);
      const page = await r.orders.list({ companyId: c1, page: { offset: 1, limit: 1 } });
      expect([page.rows.map((o) => o.id), page.count]).to.deep.equal([[o2.id], 3]);
    });

    it('removes orders of the company with their lines and logs, answering them with their lines', async () => {
      await given();
      const a = await r.orders.add(orderDraft(c1, 1));
      const b = await r.orders.add(orderDraft(c1, 2, { status: 'shipped' }));
      const theirs = await r.orders.add(orderDraft(c2, 1));
      const [item] = await r.orders.replaceItems(c1, a.id, [line(c1, a.id, null, 0, { reserved: 2 })]);
      await r.orderLogs.add({ companyId: c1, orderId: a.id, userId: null, type: 'created', from: null, to: 'new', data: {}, createdAt: T0 });
      const gone = await r.orders.remove(c1, [b.id, a.id, theirs.id, 2_147_483_647]);
      expect(gone.map((g) => [g.order.id, g.order.status, g.items])).to.deep.equal([
        [a.id, 'new', [item]],
        [b.id, 'shipped', []],
      ]);
      expect(await r.orders.findById(c1, a.id)).to.equal(null);
      expect(await r.orders.items(c1, [a.id])).to.deep.equal([]);
      expect(await r.orderLogs.list(c1, a.id)).to.deep.equal([]);
      expect(await r.orders.findById(c2, theirs.id)).to.not.equal(null);
      expect(await r.orders.remove(c1, [a.id])).to.deep.equal([]);
    });

    it("keeps an order's logs oldest first, their data as written, within the company", async () => {
      await given();
      const o = await r.orders.add(orderDraft(c1, 1));
      const later = await r.orderLogs.add({
        companyId: c1,
        orderId: o.id,
        userId: null,
        type: 'status',
        from: 'new',
        to: 'confirmed',
        data: { message: null },
        createdAt: at(5),
      });
      const first = await r.orderLogs.add({
        companyId: c1,
        orderId: o.id,
        userId: null,
        type: 'created',
        from: null,
        to: 'new',
        data: { items: [{ productId: 1, name: 'Vaso', quantity: 2 }], total: 2000 },
        createdAt: T0,
      });
      expect((await r.orderLogs.list(c1, o.id)).map(plain)).to.deep.equal([first, later]);
      expect(await r.orderLogs.list(c2, o.id)).to.deep.equal([]);
    });

    it('keeps one default row and one row per connection, the default listed first, found exactly', async () => {
      await given();
      const k1 = await r.connections.add(connectionFixture(c1, 'Loja'));
      const k2 = await r.connections.add(connectionFixture(c1, 'Atacado'));
      const own = await r.orderSettings.add(settingDraft(c1, k1.id, { currency: 'USD', paymentInstructions: 'Pix: loja@example.com' }));
      const base = await r.orderSettings.add(settingDraft(c1, null));
      await r.orderSettings.add(settingDraft(c2, null));
      expect((await r.orderSettings.list(c1)).map(plain)).to.deep.equal([base, own]);
      expect(plain(await r.orderSettings.findFor(c1, k1.id))).to.deep.equal(own);
      expect(await r.orderSettings.findFor(c1, k2.id)).to.equal(null);
      expect(plain(await r.orderSettings.findFor(c1, null))).to.deep.equal(base);
      expect(await code(r.orderSettings.add(settingDraft(c1, null)))).to.equal('ERR_ORDER_SETTING_EXISTS');
      expect(await code(r.orderSettings.add(settingDraft(c1, k1.id)))).to.equal('ERR_ORDER_SETTING_EXISTS');
      expect(await r.orderSettings.findById(c2, own.id)).to.equal(null);
    });

    it('updates a row (a taken place refused) and removes it within the company', async () => {
      await given();
      const k1 = await r.connections.add(connectionFixture(c1, 'Loja'));
      const base = await r.orderSettings.add(settingDraft(c1, null));
      const own = await r.orderSettings.add(settingDraft(c1, k1.id));
      const edited = { ...own, currency: 'EUR', statusMessages: { ...own.statusMessages, shipped: 'Saiu!' }, updatedAt: at(1) };
      await r.orderSettings.update(edited);
      expect(plain(await r.orderSettings.findById(c1, own.id))).to.deep.equal(edited);
      expect(await code(r.orderSettings.update({ ...base, connectionId: k1.id }))).to.equal('ERR_ORDER_SETTING_EXISTS');
      expect(await r.orderSettings.remove(c2, own.id)).to.equal(false);
      expect(await r.orderSettings.remove(c1, own.id)).to.equal(true);
      expect(await r.orderSettings.findById(c1, own.id)).to.equal(null);
    });
  });
}
