import { expect } from 'chai';
import { connectionFixture } from '../contracts/messaging-contract.js';
import { code, ticketWorld } from '../messaging/ticket-world.js';

describe('Order settings', () => {
  it('admins write one default row and one per connection; every user reads them, the default first', async () => {
    const w = await ticketWorld();
    const s = w.app.orders;
    expect(await code(s.createOrderSetting.execute({ actor: w.ana, currency: 'BRL' }))).to.equal('ERR_NO_PERMISSION');
    const own = await s.createOrderSetting.execute({ actor: w.admin, connectionId: w.connection.id, currency: 'eur', statusMessages: { shipped: '  Saiu! ' } });
    expect(own).to.deep.include({
      connectionId: w.connection.id,
      connection: { id: w.connection.id, name: 'Main' },
      currency: 'EUR',
      paymentInstructions: '',
      statusMessages: { confirmed: '', paid: '', shipped: 'Saiu!', delivered: '', cancelled: '' },
    });
    const base = await s.createOrderSetting.execute({ actor: w.admin, paymentInstructions: 'Pix: loja@example.com' });
    expect(base).to.deep.include({ connectionId: null, connection: null, currency: 'BRL' });
    expect((await s.listOrderSettings.execute({ actor: w.bia })).map((r) => r.id)).to.deep.equal([base.id, own.id]);
    expect(await s.showOrderSetting.execute({ actor: w.bia, settingId: own.id })).to.deep.equal(own);
    expect(await code(s.createOrderSetting.execute({ actor: w.admin }))).to.equal('ERR_ORDER_SETTING_EXISTS');
    expect(await code(s.createOrderSetting.execute({ actor: w.admin, connectionId: w.connection.id }))).to.equal('ERR_ORDER_SETTING_EXISTS');
    expect(await code(s.createOrderSetting.execute({ actor: w.admin, connectionId: w.otherConnection.id }))).to.equal('ERR_NO_CONNECTION_FOUND');
    expect(await code(s.createOrderSetting.execute({ actor: w.admin, connectionId: 424242 }))).to.equal('ERR_NO_CONNECTION_FOUND');
    expect(await code(s.showOrderSetting.execute({ actor: w.otherAdmin, settingId: own.id }))).to.equal('ERR_NO_ORDER_SETTING_FOUND');
  });

  it('edits only the fields given (a status text left out keeps its text), moves a row to a free connection, removes rows', async () => {
    const w = await ticketWorld();
    const s = w.app.orders;
    const base = await s.createOrderSetting.execute({ actor: w.admin, statusMessages: { confirmed: 'Confirmado', paid: 'Pago' } });
    const edited = await s.updateOrderSetting.execute({ actor: w.admin, settingId: base.id, statusMessages: { paid: '' }, currency: 'USD' });
    expect([edited.currency, edited.statusMessages.confirmed, edited.statusMessages.paid]).to.deep.equal(['USD', 'Confirmado', '']);
    const second = await w.ports.connections.add(connectionFixture(w.acme.id, 'Atacado'));
    const own = await s.createOrderSetting.execute({ actor: w.admin, connectionId: second.id });
    expect(await code(s.updateOrderSetting.execute({ actor: w.admin, settingId: own.id, connectionId: null }))).to.equal('ERR_ORDER_SETTING_EXISTS');
    expect((await s.updateOrderSetting.execute({ actor: w.admin, settingId: own.id, connectionId: w.connection.id })).connection).to.deep.equal({
      id: w.connection.id,
      name: 'Main',
    });
    expect(await code(s.updateOrderSetting.execute({ actor: w.admin, settingId: own.id, currency: 'XYZ' }))).to.equal('ERR_ORDER_SETTING_INVALID_CURRENCY');
    expect(await code(s.updateOrderSetting.execute({ actor: w.admin, settingId: own.id, paymentInstructions: 'x'.repeat(2001) }))).to.equal(
      'ERR_ORDER_SETTING_INVALID_TEXT',
    );
    expect(await code(s.updateOrderSetting.execute({ actor: w.admin, settingId: own.id, statusMessages: { shipped: 'x'.repeat(4001) } }))).to.equal(
      'ERR_ORDER_SETTING_INVALID_TEXT',
    );
    expect(await code(s.updateOrderSetting.execute({ actor: w.ana, settingId: own.id, currency: 'BRL' }))).to.equal('ERR_NO_PERMISSION');
    expect(await code(s.deleteOrderSetting.execute({ actor: w.otherAdmin, settingId: own.id }))).to.equal('ERR_NO_ORDER_SETTING_FOUND');
    await s.deleteOrderSetting.execute({ actor: w.admin, settingId: own.id });
    expect((await s.listOrderSettings.execute({ actor: w.admin })).map((r) => r.id)).to.deep.equal([base.id]);
  });
});
