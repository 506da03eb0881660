import { expect } from 'chai';
import type { Message } from '../../src/index.js';
import { renderStatusMessage } from '../../src/orders/status-messages.js';
import type { Order, OrderItem } from '../../src/orders/order.js';
import { orderDraft, productDraft } from '../contracts/orders-contract.js';
import { connectionFixture } from '../contracts/messaging-contract.js';
import { eventsOf, ticketWorld } from '../messaging/ticket-world.js';

const NBSP = '\u00a0';

async function shop() {
  const w = await ticketWorld();
  const vase = await w.ports.products.add(productDraft(w.acme.id, 'Vaso M', { price: 4990 }));
  const sent = (ticketId: number): Message[] => [...w.ports.messages.rows.values()].filter((m) => m.ticketId === ticketId && m.fromMe);
  /** Resolves once the frames published after the commit are out. */
  const announced = async (pair: string) => {
    for (let i = 0; i < 100 && !eventsOf(w).includes(pair); i++) await new Promise((resolve) => setImmediate(resolve));
    return eventsOf(w).includes(pair);
  };
  const take = (contactId: number, ticketId?: number) =>
    w.app.orders.createOrder.execute({
      actor: w.ana,
      contactId,
      ...(ticketId !== undefined ? { ticketId } : {}),
      items: [{ productId: vase.id, quantity: 2 }],
      shippingFee: 1000,
    });
  return { ...w, vase, sent, announced, take };
}

describe('Orders: status messages', () => {
  it("renders the order's variables and the scheduled messages' in one pass, leaving unknown ones", () => {
    const order: Order = {
      ...orderDraft(1, 42, { subtotal: 9980, discount: 500, shippingFee: 1500, total: 10980, paymentMethod: 'Pix', address: 'Rua A, 1' }),
      id: 7,
    };
    const items = [
      { id: 1, companyId: 1, orderId: 7, productId: 3, name: 'Vaso {{name}}', sku: null, unitPrice: 4990, quantity: 2, total: 9980, reserved: 0, position: 0 },
    ] satisfies OrderItem[];
    const text = renderStatusMessage(
      '{{firstName}}, pedido #{{ number }}: {{items}}; {{subtotal}} - {{discount}} + {{shipping}} = {{TOTAL}} ({{paymentMethod}}) {{address}}. {{payment}} {{userName}} {{nope}}',
      { order, items, paymentInstructions: 'Pix: loja@example.com' },
      {
        contactName: 'Maria Souza',
        userName: 'Ana',
        ticketId: 5,
        queueName: '',
        connectionName: 'Loja',
        companyName: 'Acme',
        at: new Date('2026-03-02T15:00:00Z'),
        timeZone: 'America/Sao_Paulo',
      },
    );
    expect(text).to.equal(
      `Maria, pedido #42: 2x Vaso {{name}} — R$${NBSP}99,80; R$${NBSP}99,80 - R$${NBSP}5,00 + R$${NBSP}15,00 = R$${NBSP}109,80 (Pix) Rua A, 1. Pix: loja@example.com Ana {{nope}}`,
    );
  });

  it("tells the contact in the order's ticket, with the status move, and announces the message after the commit", async () => {
    const w = await shop();
    await w.app.orders.createOrderSetting.execute({
      actor: w.admin,
      paymentInstructions: 'Pix: loja@example.com',
      statusMessages: { confirmed: 'Olá {{firstName}}! Pedido #{{number}} confirmado: {{total}}.\n{{payment}}' },
    });
    const t = await w.ticket();
    const contact = (await w.ports.contacts.findById(w.acme.id, t.contactId))!;
    const o = await w.take(t.contactId, t.id);
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, status: 'confirmed' });
    const [message] = w.sent(t.id);
    const body = `Olá ${contact.name.split(' ')[0]}! Pedido #1 confirmado: R$${NBSP}109,80.\nPix: loja@example.com`;
    expect(message).to.deep.include({ body, status: 'pending', userId: w.ana.userId, connectionId: w.connection.id, contactId: contact.id });
    expect(w.ports.outbox.entries.find((e) => e.id === message!.id)?.payload).to.deep.include({
      type: 'SessionSendMessage',
      to: contact.number,
      ticketId: t.id,
    });
    expect((await w.ports.tickets.findById(w.acme.id, t.id))!.lastMessage).to.equal(body);
    const logs = await w.app.orders.listOrderLogs.execute({ actor: w.ana, orderId: o.id });
    expect(logs.at(-1)!.data).to.deep.equal({ message: { messageId: message!.id, ticketId: t.id } });
    expect(await w.announced('appMessage:create')).to.equal(true);
    expect(eventsOf(w).filter((e) => e === 'ticket:update' || e === 'order:update')).to.include.members(['order:update', 'ticket:update']);
    // No text for `paid`: nothing more is sent.
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, status: 'paid' });
    expect(w.sent(t.id)).to.have.length(1);
    expect((await w.app.orders.listOrderLogs.execute({ actor: w.ana, orderId: o.id })).at(-1)!.data).to.deep.equal({ message: null });
  });

  it("takes a connection's row over the default row", async () => {
    const w = await shop();
    await w.app.orders.createOrderSetting.execute({ actor: w.admin, statusMessages: { cancelled: 'Cancelado (padrão)' } });
    const shopfront = await w.ports.connections.add(connectionFixture(w.acme.id, 'Atacado', { status: 'CONNECTED' }));
    await w.app.orders.createOrderSetting.execute({ actor: w.admin, connectionId: shopfront.id, statusMessages: { cancelled: 'Cancelado (atacado)' } });
    const main = await w.ticket();
    const wholesale = await w.ticket({}, shopfront);
    for (const t of [main, wholesale]) {
      const o = await w.take(t.contactId, t.id);
      await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: o.id, status: 'cancelled' });
    }
    expect([w.sent(main.id).map((m) => m.body), w.sent(wholesale.id).map((m) => m.body)]).to.deep.equal([['Cancelado (padrão)'], ['Cancelado (atacado)']]);
  });

  it("without a ticket of its own, goes to the contact's active ticket; into its own closed ticket when there is none; nowhere without any", async () => {
    const w = await shop();
    await w.app.orders.createOrderSetting.execute({ actor: w.admin, statusMessages: { confirmed: 'Pedido #{{number}} confirmado' } });
    const t = await w.ticket();
    const walkIn = await w.take(t.contactId);
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: walkIn.id, status: 'confirmed' });
    expect(w.sent(t.id).map((m) => m.body)).to.deep.equal(['Pedido #1 confirmado']);

    const closed = await w.ticket();
    const fromClosed = await w.take(closed.contactId, closed.id);
    await w.ports.tickets.update({ ...closed, status: 'closed', closedAt: w.ports.clock.now() });
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: fromClosed.id, status: 'confirmed' });
    expect(w.sent(closed.id).map((m) => m.body)).to.deep.equal(['Pedido #2 confirmado']);

    const stranger = await w.contact();
    const nowhere = await w.take(stranger.id);
    await w.app.orders.updateOrder.execute({ actor: w.ana, orderId: nowhere.id, status: 'confirmed' });
    expect((await w.app.orders.listOrderLogs.execute({ actor: w.ana, orderId: nowhere.id })).at(-1)!.data).to.deep.equal({ message: null });
  });
});
