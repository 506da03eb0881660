import { expect } from 'chai';
import type { InboundMessageEvent } from '../../src/index.js';
import { ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';

let n = 0;
function inbound(w: TicketWorld, from: string, body = 'oi'): InboundMessageEvent {
  return {
    type: 'InboundMessage',
    companyId: w.acme.id,
    chatappId: w.connection.id,
    providerMessageId: `wamid-${++n}`,
    from,
    senderName: 'Someone',
    body,
    isGroup: false,
    at: '2026-01-01T12:00:00.000Z',
  };
}

describe('Contacts on inbound messages (in-memory use cases)', () => {
  it('a message from a Brazilian mobile without its ninth digit reaches the contact stored with it, and vice versa', async () => {
    const w = await ticketWorld();
    const ana = await w.app.contacts.createContact.execute({ actor: w.admin, name: 'Ana', number: '5511988887777' });
    const first = await w.app.conversations.routeInbound.execute(inbound(w, '551188887777'));
    expect((await w.ports.tickets.findById(w.acme.id, first.ticketId!))!.contactId).to.equal(ana.id);
    const bia = await w.app.contacts.createContact.execute({ actor: w.admin, name: 'Bia', number: '551177776666' });
    const second = await w.app.conversations.routeInbound.execute(inbound(w, '5511977776666'));
    expect((await w.ports.tickets.findById(w.acme.id, second.ticketId!))!.contactId).to.equal(bia.id);
    expect((await w.app.contacts.listContacts.execute({ actor: w.admin })).count).to.equal(2);
  });

  it('a message from a LID linked to a contact reaches that contact', async () => {
    const w = await ticketWorld();
    const ana = await w.app.contacts.createContact.execute({
      actor: w.admin,
      name: 'Ana',
      number: '5511988887777',
      identifiers: [{ kind: 'lid', value: '201234567890123' }],
    });
    const routed = await w.app.conversations.routeInbound.execute(inbound(w, '201234567890123'));
    expect((await w.ports.tickets.findById(w.acme.id, routed.ticketId!))!.contactId).to.equal(ana.id);
  });

  it("a blocked contact's messages are stored on a closed ticket, open none, greet nobody and tell nobody", async () => {
    const w = await ticketWorld();
    await w.ports.connections.update({ ...w.connection, greetingMessage: 'Olá!' });
    const c = await w.app.contacts.createContact.execute({ actor: w.admin, name: 'Spam', number: '5511988887777' });
    await w.app.contacts.setContactBlocked.execute({ actor: w.admin, contactId: c.id, blocked: true });
    const before = w.ports.realtime.events.length;
    const first = await w.app.conversations.routeInbound.execute(inbound(w, '551188887777', 'compre já'));
    const second = await w.app.conversations.routeInbound.execute(inbound(w, '5511988887777', 'promoção'));
    expect(first).to.include({ duplicate: false, greeted: false });
    expect(second.ticketId).to.equal(first.ticketId);
    const holder = (await w.ports.tickets.findById(w.acme.id, first.ticketId!))!;
    expect(holder).to.include({ contactId: c.id, status: 'closed', unreadMessages: 0, lastMessage: '' });
    expect(await w.ports.tickets.findActive(w.acme.id, c.id, w.connection.id)).to.equal(null);
    expect((await w.ports.messages.listByTicket(w.acme.id, holder.id, { offset: 0, limit: 10 })).rows.map((m) => m.body).sort()).to.deep.equal([
      'compre já',
      'promoção',
    ]);
    expect(w.ports.realtime.events.length).to.equal(before);
    expect(w.ports.outbox.entries).to.deep.equal([]);
    const duplicate = { ...inbound(w, '5511988887777'), providerMessageId: 'wamid-dup' };
    await w.app.conversations.routeInbound.execute(duplicate);
    expect((await w.app.conversations.routeInbound.execute(duplicate)).duplicate).to.equal(true);

    await w.app.contacts.setContactBlocked.execute({ actor: w.admin, contactId: c.id, blocked: false });
    const after = await w.app.conversations.routeInbound.execute(inbound(w, '5511988887777', 'voltei'));
    expect(after.ticketId).to.not.equal(holder.id);
    expect(await w.ports.tickets.findById(w.acme.id, after.ticketId!)).to.include({ status: 'pending', unreadMessages: 1, lastMessage: 'voltei' });
    expect(after.greeted).to.equal(true);
  });

  it('a contact blocked during a conversation keeps writing into it, silently', async () => {
    const w = await ticketWorld();
    const first = await w.app.conversations.routeInbound.execute(inbound(w, '5511988887777', 'oi'));
    const contactId = (await w.ports.tickets.findById(w.acme.id, first.ticketId!))!.contactId;
    await w.app.contacts.setContactBlocked.execute({ actor: w.admin, contactId, blocked: true });
    const before = w.ports.realtime.events.length;
    const held = await w.app.conversations.routeInbound.execute(inbound(w, '5511988887777', 'ainda aqui'));
    expect(held.ticketId).to.equal(first.ticketId);
    expect(await w.ports.tickets.findById(w.acme.id, first.ticketId!)).to.include({ status: 'pending', unreadMessages: 1, lastMessage: 'oi' });
    expect(w.ports.realtime.events.length).to.equal(before);
  });
});
