import { expect } from 'chai';
import {
  createApplication,
  MAX_TICKET_MEDIA_BYTES,
  SUBJECTS,
  type SessionEditMessage,
  type SessionRevokeMessage,
  type SessionSendMessage,
} from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';
import { code, eventsOf, ticketWorld, type TicketWorld } from './ticket-world.js';

const PNG = Buffer.from('89504e470d0a1a0a', 'hex');
const commands = (w: TicketWorld) => w.ports.outbox.entries.map((e) => e.payload as { type: string });

/** A message the operators sent that the channel reported sent, with a provider id. */
async function sentReply(w: TicketWorld, actor = w.ana) {
  const t = await w.ticket({ status: 'open', userId: actor.userId });
  const {
    messages: [m],
  } = await w.app.conversations.sendTicketMessage.execute({ actor, ticketId: t.id, body: 'first try' });
  await w.app.conversations.applyChannelEvent.execute({
    type: 'SessionMessageSent',
    messageId: m!.id,
    companyId: w.acme.id,
    chatappId: w.connection.id,
    providerMessageId: 'P-1',
    at: '2026-01-01T12:00:00Z',
  });
  w.ports.outbox.entries.length = 0;
  w.ports.realtime.events.length = 0;
  return { ticket: t, message: m! };
}

describe('Messages (in-memory use cases)', () => {
  describe('reading', () => {
    it('pages a conversation newest page first, oldest first within a page, and resets the unread count once', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ unreadMessages: 3 });
      for (let i = 0; i < 25; i++) {
        await w.message(t, { body: `m${i}` });
        w.ports.clock.advance(1000);
      }
      const first = await w.app.conversations.listTicketMessages.execute({ actor: w.ana, ticketId: t.id });
      expect(first).to.include({ count: 25, hasMore: true });
      expect(first.messages.map((m) => m.body)).to.deep.equal(Array.from({ length: 20 }, (_, i) => `m${i + 5}`));
      expect(first.ticket).to.include({ id: t.id, unreadMessages: 0 });
      expect((await w.ports.tickets.findById(w.acme.id, t.id))!.unreadMessages).to.equal(0);
      const second = await w.app.conversations.listTicketMessages.execute({ actor: w.ana, ticketId: t.id, pageNumber: 2 });
      expect(second.messages.map((m) => m.body)).to.deep.equal(['m0', 'm1', 'm2', 'm3', 'm4']);
      expect(second.hasMore).to.equal(false);
      expect(eventsOf(w)).to.deep.equal(['ticket:update', 'ticket:updateUnread']);
      expect(await code(w.app.conversations.listTicketMessages.execute({ actor: w.otherAdmin, ticketId: t.id }))).to.equal('ERR_NO_TICKET_FOUND');
    });

    it("counts messages sent or received, in days of the company's time zone, as the dashboard scopes them", async () => {
      const w = await ticketWorld();
      const mine = await w.ticket({ status: 'open', userId: w.ana.userId });
      const pending = await w.ticket({ status: 'pending' });
      // 02:30 UTC on 10 March is still 9 March in São Paulo (UTC-3).
      await w.message(mine, { body: 'late', createdAt: new Date('2026-03-10T02:30:00Z') });
      await w.message(mine, { fromMe: true, userId: w.ana.userId, body: 'reply', createdAt: new Date('2026-03-10T12:00:00Z') });
      await w.message(pending, { body: 'waiting', createdAt: new Date('2026-03-11T12:00:00Z') });
      await w.message(await w.ticket({}, w.otherConnection), { body: 'theirs', createdAt: new Date('2026-03-10T12:00:00Z') });
      const count = async (actor: typeof w.admin, q: Omit<Parameters<typeof w.app.conversations.countMessages.execute>[0], 'actor'> = {}) => {
        const res = await w.app.conversations.countMessages.execute({ actor, ...q });
        expect(res.count).to.have.length(1);
        return res.count[0].count;
      };
      expect([await count(w.admin), await count(w.admin, { fromMe: true }), await count(w.admin, { fromMe: false })]).to.deep.equal([3, 1, 2]);
      await w.ports.settings.put(w.acme.id, 'timezone', 'America/Sao_Paulo');
      expect(await count(w.admin, { dateStart: '2026-03-09', dateEnd: '2026-03-09' })).to.equal(1);
      expect(await count(w.admin, { fromMe: false, dateStart: '2026-03-10', dateEnd: '2026-03-11' })).to.equal(1);
      expect([await count(w.admin, { dateStart: '2026-03-10' }), await count(w.admin, { dateEnd: '2026-03-10' })]).to.deep.equal([2, 2]);
      // An operator without the dashboard counts the tickets assigned to them.
      expect([await count(w.ana), await count(w.ana, { fromMe: true }), await count(w.bia)]).to.deep.equal([2, 1, 0]);
      await w.ports.users.update({ ...(await w.ports.users.findById(w.acme.id, w.bia.userId))!, showDashboard: 'enabled' });
      expect(await count(w.bia)).to.equal(3);
      expect(await count(w.otherAdmin)).to.equal(1);
      expect(await code(w.app.conversations.countMessages.execute({ actor: w.admin, dateStart: '2026-02-30' }))).to.equal('ERR_INVALID_DATE');
      expect(await code(w.app.conversations.countMessages.execute({ actor: w.admin, dateStart: '2026-03-11', dateEnd: '2026-03-10' }))).to.equal(
        'ERR_INVALID_DATE_RANGE',
      );
    });

    it("lists a ticket's files", async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      await w.message(t, { media: { key: 'k', url: 'u', contentType: 'image/png', filename: 'a.png', size: 1 }, body: '' });
      const media = await w.app.conversations.listTicketMedia.execute({ actor: w.ana, ticketId: t.id });
      expect(media).to.include({ count: 1, hasMore: false });
      expect(media.messages[0]!.media).to.include({ filename: 'a.png' });
      expect(await code(w.app.conversations.listTicketMedia.execute({ actor: w.bia, ticketId: t.id }))).to.equal('ERR_NO_PERMISSION');
    });
  });

  describe('sending', () => {
    it('a reply on a pending ticket goes through the outbox and takes the ticket for the sender', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ unreadMessages: 2 });
      const sent = await w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: 'Hi, how can I help?' });
      expect(sent.messages[0]).to.include({ body: 'Hi, how can I help?', fromMe: true, status: 'pending', userId: w.ana.userId, isPrivate: false, ack: 0 });
      expect(sent.ticket).to.include({ status: 'open', userId: w.ana.userId, unreadMessages: 0, lastMessage: 'Hi, how can I help?' });
      expect(w.ports.outbox.entries.map((e) => e.subject)).to.deep.equal([SUBJECTS.sessionSend(w.connection.id)]);
      expect(commands(w)[0]).to.deep.include({ type: 'SessionSendMessage', messageId: sent.messages[0]!.id, ticketId: t.id });
      expect((await w.ports.ticketLogs.listByTicket(w.acme.id, t.id)).map((l) => [l.type, l.payload.via])).to.deep.equal([['accept', 'message']]);
      expect(eventsOf(w)).to.deep.equal(['ticket:delete', 'ticket:update', 'appMessage:create']);
    });

    it('a private note is stored as sent, with no command, and leaves the ticket alone (also when closed)', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'closed', userId: w.ana.userId, closedAt: w.ports.clock.now(), lastMessage: 'bye' });
      const note = await w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: 'customer was rude', isPrivate: true });
      expect(note.messages[0]).to.include({ isPrivate: true, status: 'sent', fromMe: true, providerMessageId: null });
      expect(note.ticket).to.include({ status: 'closed', lastMessage: 'bye' });
      expect(w.ports.outbox.entries).to.deep.equal([]);
      expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: 'hello?' }))).to.equal('ERR_TICKET_CLOSED');
    });

    it('quotes a message of the conversation by its provider id, and refuses a quote from elsewhere', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      const asked = await w.message(t, { providerMessageId: 'IN-1', body: 'price?' });
      const sent = await w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: '10', quotedMsgId: asked.id });
      expect(sent.messages[0]!.quotedMessageId).to.equal(asked.id);
      expect((commands(w)[0] as SessionSendMessage).content).to.deep.include({ body: '10', quotedProviderMessageId: 'IN-1' });
      const elsewhere = await w.message(await w.ticket());
      expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: 'x', quotedMsgId: elsewhere.id }))).to.equal(
        'ERR_QUOTED_MESSAGE_NOT_FOUND',
      );
    });

    it('sends files one message each, the text on the first; refuses empty, oversized and foreign sends', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      const sent = await w.app.conversations.sendTicketMessage.execute({
        actor: w.ana,
        ticketId: t.id,
        body: 'photos',
        medias: [
          { filename: 'a b.png', contentType: 'image/png', data: PNG },
          { filename: 'x.exe', contentType: 'application/x-msdownload', data: PNG },
        ],
      });
      expect(sent.messages.map((m) => [m.body, m.media?.contentType])).to.deep.equal([
        ['photos', 'image/png'],
        ['', 'application/octet-stream'],
      ]);
      expect(sent.messages[0]!.media!.key).to.match(/^public\/company-\d+\/media\/.+-a_b\.png$/);
      expect(w.ports.blobs.blobs.size).to.equal(2);
      expect((commands(w)[1] as SessionSendMessage).content.media).to.include({ filename: 'x.exe' });
      expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: '  ' }))).to.equal('ERR_EMPTY_MESSAGE');
      expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: 'x'.repeat(70_000) }))).to.equal(
        'ERR_MESSAGE_TOO_LONG',
      );
      const huge = { filename: 'big.bin', contentType: 'application/octet-stream', data: Buffer.alloc(MAX_TICKET_MEDIA_BYTES + 1) };
      expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.ana, ticketId: t.id, body: '', medias: [huge] }))).to.equal(
        'ERR_FILE_TOO_LARGE',
      );
      expect(w.ports.blobs.blobs.size).to.equal(2);
      expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.otherAdmin, ticketId: t.id, body: 'x' }))).to.equal('ERR_NO_TICKET_FOUND');
      expect(await code(w.app.conversations.sendTicketMessage.execute({ actor: w.carla, ticketId: t.id, body: 'x' }))).to.equal('ERR_NO_PERMISSION');
    });

    it('sends products of the catalog as one text list with prices, or one image per product with its caption', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      const at = w.ports.clock.now();
      const product = (name: string, price: number, extra: Record<string, unknown> = {}) =>
        w.ports.products.add({
          companyId: w.acme.id,
          name,
          description: '',
          sku: null,
          price,
          currency: 'BRL',
          stock: 0,
          trackStock: false,
          active: true,
          categoryId: null,
          createdAt: at,
          updatedAt: at,
          ...extra,
        });
      const fern = await product('Fern', 1250, { description: 'Shade' });
      const cactus = await product('Cactus', 800);
      const gone = await product('Old', 100, { active: false });
      const sent = await w.app.conversations.sendCatalog.execute({
        actor: w.ana,
        ticketId: t.id,
        body: 'Our plants:',
        productIds: [fern.id, cactus.id, gone.id],
      });
      expect(sent.messages.map((m) => m.body)).to.deep.equal(['Our plants:\n\n1. *Fern* — R$\u00a012,50\n   Shade\n2. *Cactus* — R$\u00a08,00']);

      await w.ports.blobs.put(`public/company-${w.acme.id}/products/fern.jpg`, Buffer.from('img'), 'image/jpeg');
      await w.ports.products.addImage({
        companyId: w.acme.id,
        productId: fern.id,
        key: `public/company-${w.acme.id}/products/fern.jpg`,
        url: 'http://files.test/fern.jpg',
        contentType: 'image/jpeg',
        size: 3,
        position: 0,
        createdAt: at,
      });
      const images = await w.app.conversations.sendCatalog.execute({ actor: w.ana, ticketId: t.id, mode: 'images', productIds: [fern.id, cactus.id] });
      expect(images.messages.map((m) => [m.body, m.mediaUrl])).to.deep.equal([
        ['*Fern* — R$\u00a012,50\nShade', 'http://files.test/fern.jpg'],
        ['*Cactus* — R$\u00a08,00', null],
      ]);

      expect(await code(w.app.conversations.sendCatalog.execute({ actor: w.ana, ticketId: t.id, productIds: [] }))).to.equal('ERR_INVALID_CATALOG_ITEMS');
      expect(await code(w.app.conversations.sendCatalog.execute({ actor: w.ana, ticketId: t.id, productIds: [gone.id] }))).to.equal(
        'ERR_INVALID_CATALOG_ITEMS',
      );
      expect(await code(w.app.conversations.sendCatalog.execute({ actor: w.ana, ticketId: t.id, productIds: [9999] }))).to.equal('ERR_PRODUCT_NOT_FOUND');
      const theirs = await w.ports.products.add({ ...(await w.ports.products.findById(w.acme.id, fern.id))!, companyId: w.other.id });
      expect(await code(w.app.conversations.sendCatalog.execute({ actor: w.ana, ticketId: t.id, productIds: [theirs.id] }))).to.equal('ERR_PRODUCT_NOT_FOUND');
      // A category: another company's is not found; one of ours sends its active products.
      const category = (companyId: number) =>
        w.ports.categories.add({ companyId, name: 'Plants', description: '', parentId: null, position: 0, active: true, createdAt: at, updatedAt: at });
      const ours = await category(w.acme.id);
      const theirCategory = await category(w.other.id);
      await product('Moss', 300, { categoryId: ours.id });
      await w.ports.products.add({ ...(await w.ports.products.findById(w.acme.id, fern.id))!, companyId: w.other.id, categoryId: theirCategory.id });
      expect(await code(w.app.conversations.sendCatalog.execute({ actor: w.ana, ticketId: t.id, categoryId: theirCategory.id }))).to.equal(
        'ERR_CATEGORY_NOT_FOUND',
      );
      const byCategory = await w.app.conversations.sendCatalog.execute({ actor: w.ana, ticketId: t.id, categoryId: ours.id });
      expect(byCategory.messages.map((m) => m.body)).to.deep.equal(['1. *Moss* — R$\u00a03,00']);
    });
  });

  describe('editing and revoking', () => {
    it('edits a sent message: flags, a SessionEditMessage command with the provider id, an appMessage update', async () => {
      const w = await ticketWorld();
      const { message } = await sentReply(w);
      const edited = await w.app.conversations.editMessage.execute({ actor: w.ana, messageId: message.id, body: 'second try' });
      expect(edited).to.include({ body: 'second try', isEdited: true });
      expect(edited.editedAt).to.be.a('string');
      expect(w.ports.outbox.entries.map((e) => e.subject)).to.deep.equal([SUBJECTS.sessionEdit(w.connection.id)]);
      expect(commands(w)[0]).to.deep.equal({
        type: 'SessionEditMessage',
        messageId: message.id,
        companyId: w.acme.id,
        chatappId: w.connection.id,
        ticketId: message.ticketId,
        to: (await w.ports.contacts.findById(w.acme.id, message.contactId))!.number,
        providerMessageId: 'P-1',
        body: 'second try',
      } satisfies SessionEditMessage);
      expect(eventsOf(w)).to.deep.equal(['appMessage:update']);
    });

    it('revokes a sent message once: flagged, a SessionRevokeMessage command, a second delete changes nothing', async () => {
      const w = await ticketWorld();
      const { message } = await sentReply(w);
      expect(await w.app.conversations.revokeMessage.execute({ actor: w.admin, messageId: message.id })).to.include({ isDeleted: true, body: 'first try' });
      expect(await w.app.conversations.revokeMessage.execute({ actor: w.admin, messageId: message.id })).to.include({ isDeleted: true });
      expect(commands(w).map((c) => c.type)).to.deep.equal(['SessionRevokeMessage']);
      expect((commands(w)[0] as SessionRevokeMessage).providerMessageId).to.equal('P-1');
      expect(w.ports.outbox.entries[0]!.subject).to.equal(SUBJECTS.sessionRevoke(w.connection.id));
      expect(await code(w.app.conversations.editMessage.execute({ actor: w.ana, messageId: message.id, body: 'x' }))).to.equal('ERR_MESSAGE_DELETED');
    });

    it("changes notes and failed sends locally, refuses unsent, inbound, others' and foreign messages", async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      const note = await w.message(t, { fromMe: true, userId: w.ana.userId, isPrivate: true, status: 'sent' });
      const failed = await w.message(t, { fromMe: true, userId: w.ana.userId, status: 'failed' });
      const pending = await w.message(t, { fromMe: true, userId: w.ana.userId, status: 'pending' });
      const inbound = await w.message(t, { providerMessageId: 'IN' });
      const byBia = await w.message(t, { fromMe: true, userId: w.bia.userId, providerMessageId: 'P-B', status: 'sent' });
      expect(await w.app.conversations.editMessage.execute({ actor: w.ana, messageId: note.id, body: 'better note' })).to.include({ isEdited: true });
      expect(await w.app.conversations.revokeMessage.execute({ actor: w.ana, messageId: failed.id })).to.include({ isDeleted: true });
      expect(w.ports.outbox.entries).to.deep.equal([]);
      expect(await code(w.app.conversations.revokeMessage.execute({ actor: w.ana, messageId: pending.id }))).to.equal('ERR_MESSAGE_NOT_SENT');
      expect(await code(w.app.conversations.editMessage.execute({ actor: w.ana, messageId: pending.id, body: 'x' }))).to.equal('ERR_MESSAGE_NOT_SENT');
      expect(await code(w.app.conversations.editMessage.execute({ actor: w.ana, messageId: inbound.id, body: 'x' }))).to.equal('ERR_NOT_OWN_MESSAGE');
      expect(await code(w.app.conversations.revokeMessage.execute({ actor: w.ana, messageId: byBia.id }))).to.equal('ERR_NOT_OWN_MESSAGE');
      expect(await code(w.app.conversations.revokeMessage.execute({ actor: w.otherAdmin, messageId: byBia.id }))).to.equal('ERR_NO_MESSAGE_FOUND');
      expect(await code(w.app.conversations.editMessage.execute({ actor: w.ana, messageId: note.id, body: ' ' }))).to.equal('ERR_EMPTY_MESSAGE');
    });

    it('refuses to edit or revoke on a social-network connection', async () => {
      const w = await ticketWorld();
      const page = await w.ports.connections.add({ ...w.connection, kind: 'socialnet', provider: 'messenger', name: 'Page', isDefault: false });
      const t = await w.ticket({ status: 'open', userId: w.ana.userId }, page);
      const m = await w.message(t, { fromMe: true, userId: w.ana.userId, providerMessageId: 'mid', status: 'sent' });
      expect(await code(w.app.conversations.editMessage.execute({ actor: w.ana, messageId: m.id, body: 'x' }))).to.equal('ERR_EDIT_NOT_SUPPORTED');
      expect(await code(w.app.conversations.revokeMessage.execute({ actor: w.ana, messageId: m.id }))).to.equal('ERR_REVOKE_NOT_SUPPORTED');
    });
  });

  describe('forwarding', () => {
    it('forwards text and file to another contact on the same connection, opening a ticket for the caller', async () => {
      const w = await ticketWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      const media = { key: 'public/k.png', url: 'http://localhost/files/public/k.png', contentType: 'image/png', filename: 'k.png', size: 8 };
      const source = await w.message(t, { body: 'look', media });
      const target = await w.contact();
      const forwarded = await w.app.conversations.forwardMessage.execute({ actor: w.ana, messageId: source.id, contactId: target.id });
      expect(forwarded.ticket).to.include({ contactId: target.id, chatappId: w.connection.id, status: 'open', userId: w.ana.userId, lastMessage: 'look' });
      expect(forwarded.message).to.deep.include({ body: 'look', media, fromMe: true, status: 'pending' });
      expect((commands(w)[0] as SessionSendMessage).to).to.equal(target.number);
      expect(eventsOf(w)).to.deep.equal(['ticket:create', 'appMessage:create']);
      const again = await w.app.conversations.forwardMessage.execute({ actor: w.ana, messageId: source.id, contactId: target.id });
      expect(again.ticket.id).to.equal(forwarded.ticket.id);
      expect(
        await code(w.app.conversations.forwardMessage.execute({ actor: w.ana, messageId: source.id, contactId: (await w.contact(w.other.id)).id })),
      ).to.equal('ERR_NO_CONTACT_FOUND');
      const note = await w.message(t, { isPrivate: true, fromMe: true });
      expect(await code(w.app.conversations.forwardMessage.execute({ actor: w.ana, messageId: note.id, contactId: target.id }))).to.equal(
        'ERR_CANNOT_FORWARD_PRIVATE',
      );
      expect(await code(w.app.conversations.forwardMessage.execute({ actor: w.bia, messageId: source.id, contactId: target.id }))).to.equal(
        'ERR_NO_PERMISSION',
      );
    });
  });
});

describe('Sends no channel runtime took before the deadline', () => {
  it('are failed with ERR_SEND_DEADLINE_EXCEEDED and the change reaches the namespace; newer ones wait', async () => {
    const ports = createInMemoryPorts();
    const app = createApplication(ports);
    const now = ports.clock.now();
    const connection = await ports.connections.add({
      companyId: 1,
      name: 'Main',
      kind: 'chatapp',
      provider: 'sandbox',
      status: 'CONNECTED',
      qrcode: null,
      greetingMessage: null,
      farewellMessage: null,
      outOfHoursMessage: null,
      isDefault: true,
      tokenDigest: ports.digester.digest('api-token-123'),
      tokenHint: null,
      externalId: null,
      secrets: {},
      reopenWindowMinutes: 0,
      greetingMediaKey: null,
      promptId: null,
      createdAt: now,
      updatedAt: now,
    });
    const old = await app.conversations.sendApiMessage.execute({ connection, number: '5511988887777', body: 'old' });
    ports.clock.advance(90_000);
    const fresh = await app.conversations.sendApiMessage.execute({ connection, number: '5511988887777', body: 'fresh' });
    ports.realtime.events.length = 0;
    expect(await app.conversations.expireStaleSends.execute(60_000)).to.equal(1);
    expect(await ports.messages.findById(1, old.messageId)).to.deep.include({ status: 'failed', failureReason: 'ERR_SEND_DEADLINE_EXCEEDED' });
    expect((await ports.messages.findById(1, fresh.messageId))!.status).to.equal('pending');
    expect(ports.realtime.events.map((e) => [e.entity, e.data.action, (e.data as any).message.id])).to.deep.equal([['appMessage', 'update', old.messageId]]);
    expect(await app.conversations.expireStaleSends.execute(60_000)).to.equal(0);
  });
});
