import { expect } from 'chai';
import { SUBJECTS, type ChannelCommand } from '@servicedesk/core';
import type { Container } from 'inversify';
import { openWorld, WORLD, type World } from '../src/world.js';

/** The error code a promise rejects with, or `resolved`. */
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code ?? String(e),
  );

/**
 * One use-case suite for every adapter set: `makeContainer` gives a container on fresh (or
 * emptied) stores for each test. Nothing here knows which adapters are behind the ports.
 */
export function describeUseCases(name: string, makeContainer: () => Promise<Container>): void {
  describe(`Use cases on ${name} adapters`, () => {
    let w: World;
    beforeEach(async () => {
      w = await openWorld(await makeContainer());
    });

    const pendingOutbox = () => w.inUnitOfWork(() => w.ports.outbox.pending(100));
    const tickets = (actor = w.admin) => w.inUnitOfWork(() => w.app.tickets.listTickets.execute({ actor, showAll: true }));

    it('an inbound message opens a pending ticket for the contact and greets them', async () => {
      const routed = await w.receive('wamid-1', 'hello');
      expect(routed).to.include({ duplicate: false, greeted: true });
      const { tickets: list, count } = await tickets();
      expect(count).to.equal(1);
      expect(list[0]).to.include({ id: routed.ticketId, status: 'pending', lastMessage: 'hello', unreadMessages: 1 });
      expect(list[0]!.contact).to.include({ number: WORLD.contact.number, name: WORLD.contact.name });
      const messages = await w.conversation(routed.ticketId!);
      expect(messages.map((m) => [m.fromMe, m.body, m.status])).to.deep.equal([
        [false, 'hello', 'delivered'],
        [true, WORLD.connection.greeting, 'pending'],
      ]);
      expect((await pendingOutbox()).map((e) => e.subject)).to.deep.equal([SUBJECTS.sessionSend(w.connection.id)]);
    });

    it('the same inbound message delivered twice is stored once, with one greeting', async () => {
      const first = await w.receive('wamid-1', 'hello');
      const again = await w.receive('wamid-1', 'hello');
      expect(again).to.deep.equal({ duplicate: true, ticketId: null, messageId: null, greeted: false });
      expect((await tickets()).count).to.equal(1);
      expect(await w.conversation(first.ticketId!)).to.have.length(2);
      expect(await pendingOutbox()).to.have.length(1);
    });

    it('a second message of the conversation joins the same ticket and is not greeted again', async () => {
      const first = await w.receive('wamid-1', 'hello');
      const second = await w.receive('wamid-2', 'are you there?');
      expect(second).to.include({ duplicate: false, ticketId: first.ticketId, greeted: false });
      const { tickets: list, count } = await tickets();
      expect(count).to.equal(1);
      expect(list[0]).to.include({ unreadMessages: 2, lastMessage: 'are you there?' });
      expect((await w.conversation(first.ticketId!)).map((m) => m.body)).to.deep.equal(['hello', WORLD.connection.greeting, 'are you there?']);
    });

    it('a message from another number opens a ticket of its own', async () => {
      const ana = await w.receive('wamid-1', 'hello');
      const bruno = await w.receive('wamid-2', 'hi there', '5511988887777');
      expect(bruno.ticketId).to.not.equal(ana.ticketId);
      expect(bruno.greeted).to.equal(true);
      expect((await tickets()).count).to.equal(2);
    });

    it('an API send is accepted as pending with one outbox entry, and the relay hands it to the broker', async () => {
      const received: ChannelCommand[] = [];
      await w.broker.subscribe('test-runtime', 'cmd.session.send.>', async ({ payload }) => {
        received.push(payload as ChannelCommand);
      });
      const connection = await w.inUnitOfWork(() => w.app.connections.authenticateConnection.execute(WORLD.connection.apiToken));
      const res = await w.inUnitOfWork(() => w.app.conversations.sendApiMessage.execute({ connection, number: '5511977776666', body: 'Your order shipped' }));
      expect(res.status).to.equal('SUCCESS');
      const [message] = await w.conversation(res.ticketId);
      expect(message).to.include({ id: res.messageId, status: 'pending', fromMe: true, body: 'Your order shipped' });
      const outbox = await pendingOutbox();
      expect(outbox.map((e) => e.id)).to.deep.equal([res.messageId]);

      expect(await w.relay()).to.equal(1);
      expect(received).to.have.length(1);
      expect(received[0]).to.deep.include({ type: 'SessionSendMessage', messageId: res.messageId, chatappId: w.connection.id, to: '5511977776666' });
      expect(await pendingOutbox()).to.deep.equal([]);
      expect(await w.relay()).to.equal(0);
    });

    it('an operator reply takes the pending ticket and waits in the outbox as pending', async () => {
      const routed = await w.receive('wamid-1', 'hello');
      w.clock.advance(60_000);
      const reply = await w.inUnitOfWork(() => w.app.conversations.sendTicketMessage.execute({ actor: w.admin, ticketId: routed.ticketId!, body: 'On it!' }));
      expect(reply.ticket).to.include({ status: 'open', userId: w.admin.userId, lastMessage: 'On it!' });
      expect(reply.messages.map((m) => [m.body, m.status, m.userId])).to.deep.equal([['On it!', 'pending', w.admin.userId]]);
      expect((await w.conversation(routed.ticketId!)).at(-1)).to.include({ id: reply.messages[0]!.id, body: 'On it!' });
      expect(await pendingOutbox()).to.have.length(2);
    });

    it('delivery reports move a sent message forward, never back', async () => {
      const connection = await w.inUnitOfWork(() => w.app.connections.authenticateConnection.execute(WORLD.connection.apiToken));
      const { messageId, ticketId } = await w.inUnitOfWork(() =>
        w.app.conversations.sendApiMessage.execute({ connection, number: '5511977776666', body: 'hi' }),
      );
      const base = { companyId: connection.companyId, chatappId: connection.id, providerMessageId: 'p-1', at: w.clock.now().toISOString() };
      for (const event of [
        { type: 'SessionMessageSent', messageId, ...base },
        { type: 'MessageStatusChanged', status: 'read', ...base },
        { type: 'MessageStatusChanged', status: 'delivered', ...base },
      ] as const) {
        await w.inUnitOfWork(() => w.app.conversations.applyChannelEvent.execute(event));
      }
      const [message] = await w.conversation(ticketId);
      expect(message).to.include({ id: messageId, status: 'read', providerMessageId: 'p-1' });
    });

    it("another company's admin cannot see the ticket (tenancy)", async () => {
      const routed = await w.receive('wamid-1', 'hello');
      const [plan] = await w.inUnitOfWork(() => w.app.tenancy.listPlans.execute({ actor: w.admin }));
      await w.inUnitOfWork(() =>
        w.app.tenancy.createCompany.execute({
          actor: w.admin,
          name: 'Other Co',
          email: 'admin@other.test',
          planId: plan!.id,
          password: 'other-password',
        }),
      );
      const other = await w.actorOf('admin@other.test', 'other-password');
      expect(other.companyId).to.not.equal(w.admin.companyId);
      expect(await code(w.inUnitOfWork(() => w.app.tickets.showTicket.execute({ actor: other, ticketId: routed.ticketId! })))).to.equal('ERR_NO_TICKET_FOUND');
      expect((await tickets(other)).count).to.equal(0);
    });
  });
}
