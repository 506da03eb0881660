import { expect } from 'chai';
import { SUBJECTS, type SessionSendMessage } from '../../src/index.js';
import { code, eventsOf, ticketWorld } from './ticket-world.js';

describe('Tickets (in-memory use cases)', () => {
  describe('reading', () => {
    it('lists what each profile may see: pending and own by default, everything with showAll for admins and allTicket users', async () => {
      const w = await ticketWorld();
      const pending = await w.ticket();
      const anas = await w.ticket({ status: 'open', userId: w.ana.userId });
      const bias = await w.ticket({ status: 'open', userId: w.bia.userId });
      const closed = await w.ticket({ status: 'closed', userId: w.bia.userId, closedAt: w.ports.clock.now() });
      await w.ticket({}, w.otherConnection);
      const ids = async (input: Omit<Parameters<typeof w.app.tickets.listTickets.execute>[0], 'actor'>, actor = w.ana) =>
        (await w.app.tickets.listTickets.execute({ actor, ...input })).tickets.map((t) => t.id).sort((a, b) => a - b);
      expect(await ids({})).to.deep.equal([pending.id, anas.id]);
      expect(await ids({ showAll: true })).to.deep.equal([pending.id, anas.id]);
      expect(await ids({ showAll: true }, w.carla)).to.deep.equal([pending.id, anas.id, bias.id, closed.id]);
      expect(await ids({}, w.admin)).to.deep.equal([pending.id]);
      expect(await ids({ showAll: true }, w.admin)).to.deep.equal([pending.id, anas.id, bias.id, closed.id]);
      expect(await ids({ showAll: true, status: 'open', userIds: [w.bia.userId] }, w.admin)).to.deep.equal([bias.id]);
      expect(await ids({ showAll: true }, w.otherAdmin)).to.have.length(1);
      const page = await w.app.tickets.listTickets.execute({ actor: w.admin, showAll: true });
      expect(page).to.include({ count: 4, hasMore: false });
      const shown = page.tickets.find((t) => t.id === anas.id)!;
      expect(shown.contact).to.include({ id: anas.contactId });
      expect(shown.contact).to.include.keys(['id', 'name', 'number', 'urlPicture', 'acceptAudioMessage', 'disableBot', 'tags']);
      expect(shown.chatapp).to.include({ id: w.connection.id, name: 'Main' });
      expect(shown.queue).to.equal(null);
      expect(shown.user).to.deep.equal({ id: w.ana.userId, name: 'Ana' });
      expect(await w.app.tickets.countTickets.execute({ actor: w.admin, showAll: true, status: 'open' })).to.deep.equal({ count: 2 });
      expect(await w.app.tickets.countTickets.execute({ actor: w.ana })).to.deep.equal({ count: 2 });
    });

    it('filters by search (contact name), unread, group and creation day; refuses malformed dates', async () => {
      const w = await ticketWorld();
      const c = await w.contact(w.acme.id, { name: 'Joana Araújo' });
      const { ticket: joana } = await w.ports.tickets.getOrCreateActive({
        uuid: w.ports.ids.uuid(),
        companyId: w.acme.id,
        contactId: c.id,
        connectionId: w.connection.id,
        status: 'pending',
        userId: null,
        queueId: 4,
        unreadMessages: 3,
        lastMessage: '',
        isGroup: true,
        greetedAt: null,
        closedAt: null,
        createdAt: new Date('2026-02-10T23:59:00Z'),
        updatedAt: new Date('2026-02-10T23:59:00Z'),
      });
      await w.ticket();
      const ids = async (input: Omit<Parameters<typeof w.app.tickets.listTickets.execute>[0], 'actor'>) =>
        (await w.app.tickets.listTickets.execute({ actor: w.admin, showAll: true, ...input })).tickets.map((t) => t.id);
      expect(await ids({ searchParam: 'joana araujo' })).to.deep.equal([joana.id]);
      expect(await ids({ withUnreadMessages: true })).to.deep.equal([joana.id]);
      expect(await ids({ isGroup: true })).to.deep.equal([joana.id]);
      expect(await ids({ queueIds: [4] })).to.deep.equal([joana.id]);
      expect(await ids({ dateFrom: '2026-02-10', dateTo: '2026-02-10' })).to.deep.equal([joana.id]);
      expect(await ids({ date: '2026-02-11' })).to.deep.equal([]);
      expect(await ids({ updatedAt: '2026-02-10' })).to.deep.equal([joana.id]);
      expect(await code(ids({ dateFrom: '2026-02-30' }))).to.equal('ERR_INVALID_DATE');
      expect(await code(ids({ dateFrom: '2026-02-12', dateTo: '2026-02-10' }))).to.equal('ERR_INVALID_DATE_RANGE');
    });

    it('shows a ticket by id and uuid: 404 for another company, 403 for a user it does not belong to', async () => {
      const w = await ticketWorld();
      const bias = await w.ticket({ status: 'open', userId: w.bia.userId });
      expect((await w.app.tickets.showTicket.execute({ actor: w.bia, ticketId: bias.id })).user).to.deep.equal({ id: w.bia.userId, name: 'Bia' });
      expect((await w.app.tickets.showTicketByUuid.execute({ actor: w.admin, uuid: bias.uuid })).id).to.equal(bias.id);
      expect(await code(w.app.tickets.showTicket.execute({ actor: w.ana, ticketId: bias.id }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tickets.showTicket.execute({ actor: w.carla, ticketId: bias.id }))).to.equal('resolved');
      expect(await code(w.app.tickets.showTicket.execute({ actor: w.otherAdmin, ticketId: bias.id }))).to.equal('ERR_NO_TICKET_FOUND');
      expect(await code(w.app.tickets.showTicketByUuid.execute({ actor: w.otherAdmin, uuid: bias.uuid }))).to.equal('ERR_NO_TICKET_FOUND');
      expect(await code(w.app.tickets.showTicketByUuid.execute({ actor: w.admin, uuid: 'nope' }))).to.equal('ERR_NO_TICKET_FOUND');
    });
  });

  describe('creating', () => {
    it('opens a ticket for the caller on the default connection, logged and announced; a second one is a conflict', async () => {
      const w = await ticketWorld();
      const c = await w.contact();
      const created = await w.app.tickets.createTicket.execute({ actor: w.ana, contactId: c.id });
      expect(created).to.include({ status: 'open', userId: w.ana.userId, chatappId: w.connection.id, contactId: c.id });
      expect(eventsOf(w)).to.deep.equal(['ticket:create']);
      const logs = await w.app.tickets.listTicketLogs.execute({ actor: w.ana, ticketId: created.id });
      expect(logs.map((l) => [l.type, l.user?.name])).to.deep.equal([['create', 'Ana']]);
      expect(await code(w.app.tickets.createTicket.execute({ actor: w.admin, contactId: c.id, connectionId: w.connection.id }))).to.equal(
        'ERR_OTHER_OPEN_TICKET',
      );
      const pending = await w.app.tickets.createTicket.execute({ actor: w.ana, contactId: (await w.contact()).id, status: 'pending' });
      expect(pending).to.include({ status: 'pending', userId: null });
    });

    it('checks the contact, the connection, the assignee and the profile', async () => {
      const w = await ticketWorld();
      const c = await w.contact();
      const theirs = await w.contact(w.other.id);
      expect(await code(w.app.tickets.createTicket.execute({ actor: w.ana, contactId: theirs.id }))).to.equal('ERR_NO_CONTACT_FOUND');
      expect(await code(w.app.tickets.createTicket.execute({ actor: w.ana, contactId: c.id, connectionId: w.otherConnection.id }))).to.equal(
        'ERR_NO_CONNECTION_FOUND',
      );
      expect(await code(w.app.tickets.createTicket.execute({ actor: w.ana, contactId: c.id, userId: w.bia.userId }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tickets.createTicket.execute({ actor: w.admin, contactId: c.id, userId: w.otherAdmin.userId }))).to.equal('ERR_NO_USER_FOUND');
      expect(await code(w.app.tickets.createTicket.execute({ actor: w.otherAdmin, contactId: (await w.contact(w.other.id)).id }))).to.equal(
        'ERR_NO_DEFAULT_CONNECTION',
      );
      expect(await w.app.tickets.createTicket.execute({ actor: w.admin, contactId: c.id, userId: w.bia.userId })).to.include({ userId: w.bia.userId });
    });
  });

  describe('updating', () => {
    it('accepts a pending ticket, transfers it, returns it to the queue, each logged with the state before and after', async () => {
      const w = await ticketWorld();
      const t = await w.ticket();
      expect(await w.app.tickets.updateTicket.execute({ actor: w.ana, ticketId: t.id, status: 'open' })).to.include({ status: 'open', userId: w.ana.userId });
      expect(await w.app.tickets.updateTicket.execute({ actor: w.ana, ticketId: t.id, userId: w.bia.userId, queueId: 2 })).to.include({
        status: 'open',
        userId: w.bia.userId,
        queueId: 2,
      });
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.ana, ticketId: t.id, status: 'pending' }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.carla, ticketId: t.id, userId: w.carla.userId }))).to.equal('ERR_NO_PERMISSION');
      expect(await w.app.tickets.updateTicket.execute({ actor: w.bia, ticketId: t.id, status: 'pending' })).to.include({
        status: 'pending',
        userId: null,
        queueId: 2,
      });
      expect(await w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, userId: w.ana.userId })).to.include({
        status: 'open',
        userId: w.ana.userId,
      });
      const logs = await w.app.tickets.listTicketLogs.execute({ actor: w.admin, ticketId: t.id });
      expect(logs.map((l) => l.type)).to.deep.equal(['open', 'transfered', 'pending', 'transfered']);
      expect(logs[1]!.payload).to.deep.equal({
        from: { status: 'open', userId: w.ana.userId, queueId: null },
        to: { status: 'open', userId: w.bia.userId, queueId: 2 },
      });
      // Each move leaves the lists the ticket was in: `delete` with where it was, then `update`.
      expect(eventsOf(w)).to.deep.equal(Array(4).fill(['ticket:delete', 'ticket:update']).flat());
      expect(w.ports.realtime.events[2]!.data).to.deep.equal({
        action: 'delete',
        ticketId: t.id,
        from: { status: 'open', userId: w.ana.userId, queueId: null },
      });
    });

    it('refuses a transfer to a user of another company, a pending ticket with a user, and an empty or bad update', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, userId: w.otherAdmin.userId }))).to.equal('ERR_NO_USER_FOUND');
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, status: 'pending', userId: w.bia.userId }))).to.equal(
        'ERR_PENDING_TICKET_HAS_NO_USER',
      );
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id }))).to.equal('ERR_NOTHING_TO_UPDATE');
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, status: 'open', rating: 5 }))).to.equal('ERR_INVALID_RATING');
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, status: 'closed', rating: 6 }))).to.equal('ERR_INVALID_RATING');
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.otherAdmin, ticketId: t.id, status: 'closed' }))).to.equal('ERR_NO_TICKET_FOUND');
      expect(await w.ports.ticketLogs.listByTicket(w.acme.id, t.id)).to.deep.equal([]);
    });

    it('marks a conversation unread for anyone who may see it (at least 1, announced as updateUnread, not logged) until its messages are read again', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.bia.userId, unreadMessages: 0 });
      // Carla (allTicket) may see Bia's ticket, and marking it unread is not taking it.
      const marked = await w.app.tickets.updateTicket.execute({ actor: w.carla, ticketId: t.id, markUnread: true });
      expect(marked).to.include({ id: t.id, unreadMessages: 1, status: 'open', userId: w.bia.userId });
      expect((await w.ports.tickets.findById(w.acme.id, t.id))!.unreadMessages).to.equal(1);
      expect(eventsOf(w)).to.deep.equal(['ticket:update', 'ticket:updateUnread']);
      expect(w.ports.realtime.events[1]!.data).to.deep.include({ action: 'updateUnread', ticketId: t.id });
      // A count already above 1 is kept.
      await w.ports.tickets.update({ ...(await w.ports.tickets.findById(w.acme.id, t.id))!, unreadMessages: 4 });
      expect(await w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, markUnread: true })).to.include({ unreadMessages: 4 });
      // With a move, both apply in one change.
      const moved = await w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, queueId: 2, markUnread: true });
      expect(moved).to.include({ queueId: 2, unreadMessages: 4 });
      // Reading the conversation resets it, as for a message that arrived.
      await w.app.conversations.listTicketMessages.execute({ actor: w.bia, ticketId: t.id });
      expect((await w.ports.tickets.findById(w.acme.id, t.id))!.unreadMessages).to.equal(0);
      expect((await w.app.tickets.listTicketLogs.execute({ actor: w.admin, ticketId: t.id })).map((l) => l.type)).to.deep.equal(['transfered']);
      // `false` alone changes nothing; a user who may not see the ticket, or another company, is refused.
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, markUnread: false }))).to.equal('ERR_NOTHING_TO_UPDATE');
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.ana, ticketId: t.id, markUnread: true }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.otherAdmin, ticketId: t.id, markUnread: true }))).to.equal('ERR_NO_TICKET_FOUND');
      expect((await w.ports.tickets.findById(w.acme.id, t.id))!.unreadMessages).to.equal(0);
    });

    it('closes with the connection farewell through the outbox and the rating in the log; reopening takes the ticket', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      const closed = await w.app.tickets.updateTicket.execute({ actor: w.ana, ticketId: t.id, status: 'closed', rating: 4 });
      expect(closed).to.include({ status: 'closed', lastMessage: 'Bye!' });
      expect(closed.closedAt).to.be.a('string');
      const [entry] = w.ports.outbox.entries;
      expect(entry!.subject).to.equal(SUBJECTS.sessionSend(w.connection.id));
      expect((entry!.payload as SessionSendMessage).content.body).to.equal('Bye!');
      expect([...w.ports.messages.rows.values()].map((m) => [m.body, m.status, m.userId])).to.deep.equal([['Bye!', 'pending', w.ana.userId]]);
      const [log] = await w.ports.ticketLogs.listByTicket(w.acme.id, t.id);
      expect(log!.payload).to.deep.include({ rating: 4, farewell: true });
      expect(eventsOf(w)).to.deep.equal(['ticket:delete', 'ticket:update', 'appMessage:create']);
      expect(await w.app.tickets.updateTicket.execute({ actor: w.ana, ticketId: t.id, status: 'closed' })).to.include({ status: 'closed' });
      expect(w.ports.outbox.entries).to.have.length(1);
      const reopened = await w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, status: 'open' });
      expect(reopened).to.include({ status: 'open', userId: w.admin.userId, closedAt: null });
      expect((await w.ports.ticketLogs.listByTicket(w.acme.id, t.id)).map((l) => l.type)).to.deep.equal(['close', 'reopen']);
    });

    it('closes without farewell when asked, or to a group; a reopen that would make a second active ticket is a conflict', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      await w.app.tickets.updateTicket.execute({ actor: w.ana, ticketId: t.id, status: 'closed', sendFarewellMessage: false });
      const group = await w.ticket({ status: 'open', userId: w.ana.userId, isGroup: true });
      await w.app.tickets.updateTicket.execute({ actor: w.ana, ticketId: group.id, status: 'closed' });
      expect(w.ports.outbox.entries).to.deep.equal([]);
      await w.ports.tickets.getOrCreateActive({ ...t, status: 'pending', closedAt: null, uuid: w.ports.ids.uuid() });
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, status: 'open' }))).to.equal('ERR_OTHER_OPEN_TICKET');
      expect((await w.ports.tickets.findById(w.acme.id, t.id))!.status).to.equal('closed');
      expect(await code(w.app.tickets.updateTicket.execute({ actor: w.admin, ticketId: t.id, userId: w.bia.userId }))).to.equal('ERR_TICKET_CLOSED');
    });
  });

  describe('closing in bulk, ignoring, LGPD and deleting', () => {
    it('closes every active ticket an admin may change, or only the unassigned and own ones for a user', async () => {
      const w = await ticketWorld();
      const pending = await w.ticket();
      const anas = await w.ticket({ status: 'open', userId: w.ana.userId });
      const bias = await w.ticket({ status: 'open', userId: w.bia.userId });
      expect(await w.app.tickets.closeAllTickets.execute({ actor: w.ana })).to.deep.equal({ closed: 2 });
      expect((await w.ports.tickets.findById(w.acme.id, bias.id))!.status).to.equal('open');
      expect(w.ports.realtime.events.at(-1)!.data).to.deep.equal({ action: 'closeMany', ticketIds: [pending.id, anas.id], status: 'closed' });
      const again = await w.ticket();
      expect(await w.app.tickets.closeAllTickets.execute({ actor: w.admin, status: 'open' })).to.deep.equal({ closed: 1 });
      expect((await w.ports.tickets.findById(w.acme.id, again.id))!.status).to.equal('pending');
      expect(await w.app.tickets.closeAllTickets.execute({ actor: w.otherAdmin })).to.deep.equal({ closed: 0 });
      expect((await w.ports.ticketLogs.listByTicket(w.acme.id, bias.id))[0]!.payload).to.deep.include({ bulk: true, farewell: false });
      expect(w.ports.outbox.entries).to.deep.equal([]);
    });

    it('ignores a ticket (closed, no farewell, logged) and records LGPD answers, closing on refusal', async () => {
      const w = await ticketWorld();
      const a = await w.ticket();
      expect(await w.app.tickets.ignoreTicket.execute({ actor: w.ana, ticketId: a.id })).to.include({ status: 'closed' });
      const b = await w.ticket({ status: 'open', userId: w.ana.userId });
      expect(await w.app.tickets.recordLgpdResponse.execute({ actor: w.ana, ticketId: b.id, accepted: true })).to.include({ status: 'open' });
      expect(await w.app.tickets.recordLgpdResponse.execute({ actor: w.ana, ticketId: b.id, accepted: false })).to.include({ status: 'closed' });
      expect(w.ports.outbox.entries).to.deep.equal([]);
      expect((await w.ports.ticketLogs.listByTicket(w.acme.id, a.id)).map((l) => l.type)).to.deep.equal(['ignore']);
      expect((await w.ports.ticketLogs.listByTicket(w.acme.id, b.id)).map((l) => [l.type, l.payload.accepted, l.payload.closed])).to.deep.equal([
        ['lgpd', true, false],
        ['lgpd', false, true],
      ]);
      const bias = await w.ticket({ status: 'open', userId: w.bia.userId });
      expect(await code(w.app.tickets.ignoreTicket.execute({ actor: w.carla, ticketId: bias.id }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tickets.ignoreTicket.execute({ actor: w.otherAdmin, ticketId: bias.id }))).to.equal('ERR_NO_TICKET_FOUND');
    });

    it('an admin deletes a ticket and its messages; the delete entry stays in the log', async () => {
      const w = await ticketWorld();
      const t = await w.ticket();
      await w.message(t);
      expect(await code(w.app.tickets.deleteTicket.execute({ actor: w.ana, ticketId: t.id }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tickets.deleteTicket.execute({ actor: w.otherAdmin, ticketId: t.id }))).to.equal('ERR_NO_TICKET_FOUND');
      await w.app.tickets.deleteTicket.execute({ actor: w.admin, ticketId: t.id });
      expect(await w.ports.tickets.findById(w.acme.id, t.id)).to.equal(null);
      expect(w.ports.messages.rows.size).to.equal(0);
      expect((await w.ports.ticketLogs.listByTicket(w.acme.id, t.id)).map((l) => l.type)).to.deep.equal(['delete']);
      expect(w.ports.realtime.events.at(-1)).to.deep.include({ entity: 'ticket', data: { action: 'delete', ticketId: t.id } });
    });
  });

  describe('reporting', () => {
    it('gives admins the tickets of a creation range with contact, user and message counts', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'closed', userId: w.ana.userId, closedAt: w.ports.clock.now() });
      await w.message(t);
      await w.message(t);
      await w.ticket();
      const report = await w.app.tickets.ticketReport.execute({ actor: w.admin, status: 'closed', dateFrom: '2026-03-01', dateTo: '2026-03-01' });
      expect(report).to.include({ count: 1, hasMore: false });
      expect(report.tickets[0]).to.deep.include({ id: t.id, status: 'closed', messages: 2, user: { id: w.ana.userId, name: 'Ana' } });
      expect(report.tickets[0]!.contact).to.have.keys(['id', 'name', 'number']);
      expect((await w.app.tickets.ticketReport.execute({ actor: w.admin, dateFrom: '2026-03-02' })).count).to.equal(0);
      expect((await w.app.tickets.ticketReport.execute({ actor: w.admin, userId: w.ana.userId })).count).to.equal(1);
      expect(await code(w.app.tickets.ticketReport.execute({ actor: w.ana }))).to.equal('ERR_NO_PERMISSION');
    });
  });
});
