import { expect } from 'chai';
import { openNamespace } from '../support/namespace-client.js';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

const NBSP = '\u00a0';

describe('HTTP: orders', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  type Api = Awaited<ReturnType<typeof sandboxDesk>>['admin'];
  const product = async (api: Api, fields: Record<string, unknown>) => {
    const res = await api.post('/products', { description: '', currency: 'BRL', active: true, ...fields });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body as { id: number; stock: number };
  };
  const stockOf = async (api: Api, id: number) => (await api.get(`/products/${id}`)).body.stock as number;

  it('takes an order from a conversation, confirms it, and the status message reaches the contact; logs and frames follow', async () => {
    const d = await sandboxDesk(b);
    const { token, user } = await asSuper(b);
    const ns = await openNamespace(b.url, user.companyId as number, token);
    try {
      const settings = await d.admin.post('/order-settings', {
        paymentInstructions: 'Pix: loja@example.com',
        statusMessages: { confirmed: 'Olá {{firstName}}! Pedido #{{number}} confirmado: {{total}}.\n{{items}}\n{{payment}}' },
      });
      expect(settings.status, JSON.stringify(settings.body)).to.equal(201);
      const vase = await product(d.admin, { name: 'Vaso M', price: 4990, trackStock: true, stock: 5 });
      const ticket = await d.inbound('5511966660001', 'Quero dois vasos', { senderName: 'Maria Souza' });

      const created = await d.ana.api.post('/orders', {
        contactId: ticket.contactId,
        ticketId: ticket.id,
        items: [{ productId: vase.id, quantity: 2 }],
        shippingFee: 1000,
        address: 'Rua A, 1',
        paymentMethod: 'Pix',
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body).to.deep.include({
        number: 1,
        status: 'new',
        currency: 'BRL',
        subtotal: 9980,
        discount: 0,
        shippingFee: 1000,
        total: 10980,
        ticketId: ticket.id,
        contactId: ticket.contactId,
        contact: { id: ticket.contactId, name: 'Maria Souza', number: '5511966660001' },
        user: { id: d.ana.id, name: 'Ana' },
      });
      expect(await stockOf(d.admin, vase.id)).to.equal(3);
      expect((await ns.waitFor((f) => f.event === `company-${user.companyId}-order` && f.data.action === 'create')).data).to.deep.equal({
        action: 'create',
        order: created.body,
      });

      const confirmed = await d.bia.api.put(`/orders/${created.body.id}`, { status: 'confirmed' });
      expect([confirmed.status, confirmed.body.status], JSON.stringify(confirmed.body)).to.deep.equal([200, 'confirmed']);
      const text = `Olá Maria! Pedido #1 confirmado: R$${NBSP}109,80.\n2x Vaso M — R$${NBSP}99,80\nPix: loja@example.com`;
      await eventually('the status message at the sandbox', async () => d.sent().some((s) => s.to === '5511966660001' && s.content.body === text));
      const messages = await d.admin.get(`/messages/${ticket.id}`);
      expect(messages.body.messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe])).to.deep.include([text, true]);
      await ns.waitFor((f) => f.event === `company-${user.companyId}-order` && f.data.action === 'update' && f.data.order.status === 'confirmed');

      const logs = await d.ana.api.get(`/orders/${created.body.id}/logs`);
      expect(logs.body.map((l: { type: string; from: string | null; to: string | null }) => [l.type, l.from, l.to])).to.deep.equal([
        ['created', null, 'new'],
        ['status', 'new', 'confirmed'],
      ]);
      expect(logs.body[1].data.message).to.include({ ticketId: ticket.id });
      expect(logs.body[1].user).to.deep.equal({ id: d.bia.id, name: 'Bia' });

      expect((await d.ana.api.get('/orders?status=confirmed')).body).to.deep.include({ count: 1, hasMore: false });
      expect((await d.ana.api.get('/orders?status=paid')).body).to.deep.equal({ orders: [], count: 0, hasMore: false });
      expect((await d.ana.api.get('/orders?searchParam=maria')).body.orders.map((o: { id: number }) => o.id)).to.deep.equal([created.body.id]);
      expect((await d.ana.api.get(`/orders/contact/${ticket.contactId}`)).body.orders[0]).to.deep.include({ id: created.body.id, status: 'confirmed' });

      expect((await d.ana.api.put(`/orders/${created.body.id}`, { status: 'cancelled' })).body.status).to.equal('cancelled');
      expect(await stockOf(d.admin, vase.id)).to.equal(5);
      const deleted = await d.admin.delete(`/orders?ids=${created.body.id}`);
      expect([deleted.status, deleted.body]).to.deep.equal([200, { deleted: 1, ids: [created.body.id] }]);
      expect((await ns.waitFor((f) => f.event === `company-${user.companyId}-order` && f.data.action === 'delete')).data).to.deep.equal({
        action: 'delete',
        orderIds: [created.body.id],
      });
    } finally {
      ns.close();
    }
  });

  it('of twenty orders racing for the last unit, exactly one is taken; the others are 422 naming the product and write nothing', async () => {
    const d = await sandboxDesk(b);
    const last = await product(d.admin, { name: 'Último vaso', price: 4990, trackStock: true, stock: 1 });
    const ticket = await d.inbound('5511966660002', 'Quero o vaso');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? d.ana : d.bia).api.post('/orders', {
          contactId: ticket.contactId,
          ticketId: ticket.id,
          items: [{ productId: last.id, quantity: 1 }],
        }),
      ),
    );
    const taken = answers.filter((a) => a.status === 201);
    const refused = answers.filter((a) => a.status !== 201);
    expect(taken, JSON.stringify(answers.map((a) => [a.status, a.body.error]))).to.have.length(1);
    expect(taken[0]!.body.number).to.equal(1);
    for (const r of refused) {
      expect([r.status, r.body.error]).to.deep.equal([422, 'ERR_ORDER_OUT_OF_STOCK']);
      expect(r.body.fields).to.deep.equal([{ path: 'items.0.quantity', message: `Not enough "Último vaso" (product ${last.id}) in stock to take 1` }]);
    }
    expect(await stockOf(d.admin, last.id)).to.equal(0);
    expect((await d.admin.get('/orders')).body.count).to.equal(1);
    // The counter was not moved by the refused orders: the next order is number 2.
    const card = await product(d.admin, { name: 'Cartão', price: 500 });
    expect((await d.ana.api.post('/orders', { contactId: ticket.contactId, items: [{ productId: card.id, quantity: 1 }] })).body.number).to.equal(2);
  });

  it('of six identical status moves at once exactly one applies; the others are 409, with one log and one frame', async () => {
    const d = await sandboxDesk(b);
    const { token, user } = await asSuper(b);
    const card = await product(d.admin, { name: 'Cartão', price: 500 });
    const ticket = await d.inbound('5511966660004', 'Quero um cartão');
    const order = (await d.ana.api.post('/orders', { contactId: ticket.contactId, items: [{ productId: card.id, quantity: 1 }] })).body;
    const ns = await openNamespace(b.url, user.companyId as number, token);
    try {
      const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 ? d.ana : d.bia).api.put(`/orders/${order.id}`, { status: 'confirmed' })));
      const statuses = answers.map((a) => [a.status, a.body.error ?? a.body.status]);
      expect(
        statuses.filter(([s]) => s === 200),
        JSON.stringify(statuses),
      ).to.deep.equal([[200, 'confirmed']]);
      expect(statuses.filter(([s]) => s !== 200)).to.deep.equal(Array(5).fill([409, 'ERR_ORDER_STATUS_CONFLICT']));
      const logs = (await d.ana.api.get(`/orders/${order.id}/logs`)).body as Array<{ type: string; to: string | null }>;
      expect(logs.map((l) => [l.type, l.to])).to.deep.equal([
        ['created', 'new'],
        ['status', 'confirmed'],
      ]);
      // A move after it, then its frame: one `update` frame came before, the six moves' only one.
      expect((await d.ana.api.put(`/orders/${order.id}`, { status: 'paid' })).status).to.equal(200);
      const isUpdate = (f: { event: string; data: { action: string } }) => f.event === `company-${user.companyId}-order` && f.data.action === 'update';
      await ns.waitFor((f) => isUpdate(f) && f.data.order.status === 'paid');
      expect(ns.frames.filter(isUpdate).map((f) => f.data.order.status)).to.deep.equal(['confirmed', 'paid']);
    } finally {
      ns.close();
    }
  });

  it('answers bad input with a 4xx and its code, never a 500', async () => {
    const d = await sandboxDesk(b);
    const card = await product(d.admin, { name: 'Cartão', price: 500 });
    const ticket = await d.inbound('5511966660003', 'Oi');
    const order = (await d.ana.api.post('/orders', { contactId: ticket.contactId, items: [{ productId: card.id, quantity: 1 }] })).body;
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', '/orders', { contactId: ticket.contactId, items: [] }, 422, 'ERR_VALIDATION'],
      ['POST', '/orders', { contactId: ticket.contactId, items: [{ productId: card.id, quantity: 0 }] }, 422, 'ERR_VALIDATION'],
      [
        'POST',
        '/orders',
        {
          contactId: ticket.contactId,
          items: [
            { productId: card.id, quantity: 6000 },
            { productId: card.id, quantity: 6000 },
          ],
        },
        422,
        'ERR_ORDER_INVALID_ITEMS',
      ],
      ['POST', '/orders', { contactId: ticket.contactId, items: [{ productId: card.id, quantity: 1 }], discount: -1 }, 422, 'ERR_VALIDATION'],
      ['POST', '/orders', { contactId: ticket.contactId, items: [{ productId: card.id, quantity: 1 }], discount: 600 }, 422, 'ERR_ORDER_INVALID_AMOUNT'],
      [
        'POST',
        '/orders',
        { contactId: ticket.contactId, items: [{ productId: card.id, quantity: 1 }], notes: 'x'.repeat(2001) },
        422,
        'ERR_ORDER_INVALID_DETAILS',
      ],
      ['POST', '/orders', { contactId: ticket.contactId, items: [{ productId: 'abc', quantity: 1 }] }, 422, 'ERR_VALIDATION'],
      ['POST', '/orders', { contactId: ticket.contactId, items: [{ productId: 99_999, quantity: 1 }] }, 404, 'ERR_PRODUCT_NOT_FOUND'],
      ['POST', '/orders', { contactId: 99_999, items: [{ productId: card.id, quantity: 1 }] }, 404, 'ERR_NO_CONTACT_FOUND'],
      ['POST', '/orders', { contactId: ticket.contactId, ticketId: 99_999, items: [{ productId: card.id, quantity: 1 }] }, 404, 'ERR_NO_TICKET_FOUND'],
      ['PUT', `/orders/${order.id}`, { status: 'lost' }, 422, 'ERR_VALIDATION'],
      ['PUT', `/orders/${order.id}`, { status: 'delivered' }, 409, 'ERR_ORDER_STATUS_CONFLICT'],
      ['PUT', '/orders/99999', { notes: 'x' }, 404, 'ERR_NO_ORDER_FOUND'],
      ['GET', '/orders/abc', undefined, 422, 'ERR_VALIDATION'],
      ['GET', '/orders/99999999999', undefined, 422, 'ERR_VALIDATION'],
      ['GET', '/orders?dateFrom=2026-02-30', undefined, 422, 'ERR_INVALID_DATE'],
      ['GET', '/orders?dateFrom=yesterday', undefined, 422, 'ERR_VALIDATION'],
      ['GET', '/orders?status=lost', undefined, 422, 'ERR_VALIDATION'],
      ['GET', '/orders/contact/99999', undefined, 404, 'ERR_NO_CONTACT_FOUND'],
      ['GET', '/orders/99999/logs', undefined, 404, 'ERR_NO_ORDER_FOUND'],
      ['DELETE', '/orders', { ids: [] }, 422, 'ERR_VALIDATION'],
      ['DELETE', '/orders', {}, 422, 'ERR_VALIDATION'],
      ['DELETE', '/orders?ids=1,x', undefined, 422, 'ERR_VALIDATION'],
      ['DELETE', '/orders', { ids: [order.id, 99_999] }, 404, 'ERR_NO_ORDER_FOUND'],
      ['POST', '/order-settings', { currency: 'REAIS' }, 422, 'ERR_ORDER_SETTING_INVALID_CURRENCY'],
      ['POST', '/order-settings', { statusMessages: { shipped: 'x'.repeat(4001) } }, 422, 'ERR_ORDER_SETTING_INVALID_TEXT'],
      ['POST', '/order-settings', { connectionId: 99_999 }, 404, 'ERR_NO_CONNECTION_FOUND'],
      ['PUT', '/order-settings/99999', { currency: 'BRL' }, 404, 'ERR_NO_ORDER_SETTING_FOUND'],
    ];
    for (const [method, path, body, status, error] of cases) {
      const res = await d.admin.call(method, path, body);
      expect([res.status, res.body.error], `${method} ${path} ${JSON.stringify(body)?.slice(0, 120)}`).to.deep.equal([status, error]);
    }
    expect((await d.admin.post('/order-settings', {})).status).to.equal(201);
    expect((await d.admin.post('/order-settings', {})).body).to.deep.equal({ error: 'ERR_ORDER_SETTING_EXISTS' });
    expect((await d.admin.get('/orders')).body.count).to.equal(1);
  });

  it("checks tenant and profile: another company's ids are not found, operators may not delete orders or write settings", async () => {
    const d = await sandboxDesk(b);
    const other = await newCompanyWithAdmin(b);
    const card = await product(d.admin, { name: 'Cartão', price: 500 });
    const ticket = await d.inbound('5511966660004', 'Oi');
    const order = (await d.ana.api.post('/orders', { contactId: ticket.contactId, items: [{ productId: card.id, quantity: 1 }] })).body;
    const setting = (await d.admin.post('/order-settings', { connectionId: d.connectionId })).body;
    for (const [method, path, body, error] of [
      ['GET', `/orders/${order.id}`, undefined, 'ERR_NO_ORDER_FOUND'],
      ['PUT', `/orders/${order.id}`, { status: 'confirmed' }, 'ERR_NO_ORDER_FOUND'],
      ['GET', `/orders/${order.id}/logs`, undefined, 'ERR_NO_ORDER_FOUND'],
      ['DELETE', '/orders', { ids: [order.id] }, 'ERR_NO_ORDER_FOUND'],
      ['GET', `/orders/contact/${ticket.contactId}`, undefined, 'ERR_NO_CONTACT_FOUND'],
      ['POST', '/orders', { contactId: ticket.contactId, items: [{ productId: card.id, quantity: 1 }] }, 'ERR_NO_CONTACT_FOUND'],
      ['GET', `/order-settings/${setting.id}`, undefined, 'ERR_NO_ORDER_SETTING_FOUND'],
      ['DELETE', `/order-settings/${setting.id}`, undefined, 'ERR_NO_ORDER_SETTING_FOUND'],
      ['POST', '/order-settings', { connectionId: d.connectionId }, 'ERR_NO_CONNECTION_FOUND'],
    ] as const) {
      const res = await other.api.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([404, { error }]);
    }
    expect((await other.api.get('/orders')).body).to.deep.equal({ orders: [], count: 0, hasMore: false });
    for (const [method, path, body] of [
      ['DELETE', '/orders', { ids: [order.id] }],
      ['POST', '/order-settings', {}],
      ['PUT', `/order-settings/${setting.id}`, { currency: 'USD' }],
      ['DELETE', `/order-settings/${setting.id}`, undefined],
    ] as const) {
      const res = await d.ana.api.call(method, path, body);
      expect([res.status, res.body], `${method} ${path}`).to.deep.equal([403, { error: 'ERR_NO_PERMISSION' }]);
    }
    expect((await d.ana.api.get('/order-settings')).body.map((s: { id: number }) => s.id)).to.deep.equal([setting.id]);
    expect((await d.ana.api.get(`/orders/${order.id}`)).body.status).to.equal('new');
  });
});
