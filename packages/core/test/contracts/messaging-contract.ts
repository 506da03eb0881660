import { expect } from 'chai';
import type {
  Companies,
  Connections,
  Contact,
  DeliveryChange,
  Contacts,
  Message,
  MessageContextReads,
  Messages,
  NewConnection,
  Outbox,
  Plans,
  Ticket,
  TicketLogs,
  Tickets,
  Transaction,
  Users,
} from '../../src/index.js';
import { companyFixture, planFixture, userFixture } from './repositories-contract.js';

export interface MessagingFixture {
  readonly connections: Connections;
  readonly contacts: Contacts;
  readonly tickets: Tickets;
  readonly messages: Messages;
  readonly outbox: Outbox;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly users: Users;
  readonly ticketLogs: TicketLogs;
  /** What message views embed, read together (the repositories' answer in memory, one statement in SQL). */
  readonly contextReads: MessageContextReads;
  readonly tx: Transaction;
  /** Whether a failed transaction leaves nothing behind (true for databases). */
  readonly rollsBack: boolean;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const page = (offset = 0, limit = 20) => ({ offset, limit });
const times = <T>(n: number, fn: (i: number) => Promise<T>) => Promise.all(Array.from({ length: n }, (_, i) => fn(i)));

export function connectionFixture(companyId: number, name: string, overrides: Partial<NewConnection> = {}): NewConnection {
  return {
    companyId,
    name,
    kind: 'chatapp',
    provider: 'sandbox',
    status: 'DISCONNECTED',
    qrcode: null,
    pairingCode: null,
    greetingMessage: null,
    farewellMessage: null,
    outOfHoursMessage: null,
    isDefault: false,
    tokenDigest: null,
    tokenHint: null,
    externalId: null,
    secrets: {},
    reopenWindowMinutes: 0,
    greetingMediaKey: null,
    promptId: null,
    createdAt: T0,
    updatedAt: T0,
    ...overrides,
  };
}

export function contactDraft(companyId: number, number: string, overrides: Partial<Contact> = {}): Omit<Contact, 'id'> {
  return {
    companyId,
    name: `Contact ${number}`,
    number,
    email: null,
    isGroup: false,
    profilePicUrl: null,
    createdAt: T0,
    updatedAt: T0,
    blocked: false,
    acceptAudio: true,
    disableBot: false,
    walletUserId: null,
    linkedUserId: null,
    extraInfo: [],
    ...overrides,
  };
}

export function ticketDraft(
  t: { companyId: number; contactId: number; connectionId: number; uuid: string },
  overrides: Partial<Ticket> = {},
): Omit<Ticket, 'id'> {
  return {
    ...t,
    status: 'pending',
    userId: null,
    queueId: null,
    unreadMessages: 0,
    lastMessage: '',
    isGroup: false,
    greetedAt: null,
    closedAt: null,
    createdAt: T0,
    updatedAt: T0,
    queueOptionId: null,
    botAttempts: 0,
    botActive: false,
    ...overrides,
  };
}

export function messageFixture(ticket: Ticket, id: string, overrides: Partial<Message> = {}): Message {
  return {
    id,
    companyId: ticket.companyId,
    ticketId: ticket.id,
    contactId: ticket.contactId,
    connectionId: ticket.connectionId,
    providerMessageId: null,
    fromMe: false,
    body: 'hello',
    media: null,
    status: 'pending',
    failureReason: null,
    quotedMessageId: null,
    isPrivate: false,
    userId: null,
    createdAt: T0,
    updatedAt: T0,
    isDeleted: false,
    isEdited: false,
    editedAt: null,
    transcription: null,
    kind: null,
    ...overrides,
  };
}

/** One suite for every adapter of the messaging ports: connections, contacts, tickets, messages, outbox. */
export function describeMessagingContract(name: string, make: () => Promise<MessagingFixture>) {
  describe(`Messaging repositories contract: ${name}`, () => {
    let r: MessagingFixture;
    let w: { c1: number; c2: number; conn1: number; conn2: number; contact: Contact; ticket: Ticket };
    beforeEach(async () => {
      r = await make();
    });
    /** One delivery change on its own, as a batch of one. */
    const advance = async (change: DeliveryChange) => (await r.messages.advanceStatuses([change]))[0] ?? null;
    /**
     * Two companies, a connection each, and a contact and its active ticket in the first. Called
     * by each test body, not a hook: database adapters run test bodies in a unit of work.
     */
    async function given() {
      const plan = await r.plans.add(planFixture('P'));
      const c1 = (await r.companies.add(companyFixture(plan.id, 'One'))).id;
      const c2 = (await r.companies.add(companyFixture(plan.id, 'Two'))).id;
      const conn1 = (await r.connections.add(connectionFixture(c1, 'Main'))).id;
      const conn2 = (await r.connections.add(connectionFixture(c2, 'Other'))).id;
      const contact = await r.contacts.getOrCreate(contactDraft(c1, '5511999990001'));
      const { ticket } = await r.tickets.getOrCreateActive(ticketDraft({ companyId: c1, contactId: contact.id, connectionId: conn1, uuid: uuid(1) }));
      w = { c1, c2, conn1, conn2, contact, ticket };
    }

    describe('connections', () => {
      it('stores every field, finds by id within the company (or any with null) and by token digest', async () => {
        await given();
        const draft = connectionFixture(w.c1, 'Page', {
          kind: 'socialnet',
          provider: 'messenger',
          status: 'CONNECTED',
          greetingMessage: 'Olá!',
          isDefault: true,
          tokenDigest: 'digest-1',
          tokenHint: 'abcd••••wxyz',
          externalId: 'page-1',
          secrets: { pageAccessToken: 's3cret' },
          reopenWindowMinutes: 30,
          greetingMediaKey: 'media/key.png',
          promptId: 42,
          updatedAt: at(5),
        });
        const added = await r.connections.add(draft);
        expect(added).to.deep.equal({ ...draft, id: added.id });
        const found = await r.connections.findById(w.c1, added.id);
        expect({ ...found }).to.deep.equal({ ...draft, id: added.id });
        expect(found!.updatedAt.toISOString()).to.equal(at(5).toISOString());
        expect((await r.connections.findById(null, added.id))?.id).to.equal(added.id);
        expect(await r.connections.findById(w.c2, added.id)).to.equal(null);
        expect(await r.connections.findById(w.c1, 999_999)).to.equal(null);
        expect((await r.connections.findByTokenDigest('digest-1'))?.id).to.equal(added.id);
        expect(await r.connections.findByTokenDigest('digest-2')).to.equal(null);
        expect((await r.connections.findByExternalId('page-1'))?.id).to.equal(added.id);
        expect(await r.connections.findByExternalId('page-2')).to.equal(null);
        await r.connections.add(connectionFixture(w.c2, 'Session', { externalId: 'acct-1' }));
        expect(await r.connections.findByExternalId('acct-1')).to.equal(null);
      });

      it('keeps a page id on one social connection of the whole platform (ERR_PAGE_IN_USE), whatever the company', async () => {
        await given();
        const page = await r.connections.add(
          connectionFixture(w.c1, 'Page', { kind: 'socialnet', provider: 'messenger', externalId: 'page-9', secrets: { pageAccessToken: 't' } }),
        );
        const code = (p: Promise<unknown>) =>
          p.then(
            () => 'resolved',
            (e: { code?: string }) => e.code,
          );
        expect(
          await code(
            r.connections.add(
              connectionFixture(w.c2, 'Squat', { kind: 'socialnet', provider: 'sandbox', externalId: 'page-9', secrets: { pageAccessToken: 'u' } }),
            ),
          ),
        ).to.equal('ERR_PAGE_IN_USE');
        const other = await r.connections.add(
          connectionFixture(w.c2, 'Theirs', { kind: 'socialnet', provider: 'messenger', externalId: 'page-8', secrets: { pageAccessToken: 'u' } }),
        );
        expect(await code(r.connections.update({ ...other, externalId: 'page-9' }))).to.equal('ERR_PAGE_IN_USE');
        // Sessions may share an external id; a page keeps its own on update.
        await r.connections.add(connectionFixture(w.c2, 'Session', { externalId: 'page-9' }));
        await r.connections.update({ ...page, name: 'Renamed' });
        expect((await r.connections.findByExternalId('page-9'))?.id).to.equal(page.id);
        expect((await r.connections.findById(w.c2, other.id))?.externalId).to.equal('page-8');
        expect(await r.connections.countByCompany(w.c2)).to.equal(3);
      });

      it('lists and counts by company in id order, updates, and removes only within the company', async () => {
        await given();
        const second = await r.connections.add(connectionFixture(w.c1, 'Second'));
        expect((await r.connections.list(w.c1)).map((c) => c.name)).to.deep.equal(['Main', 'Second']);
        expect(await r.connections.countByCompany(w.c1)).to.equal(2);
        expect(await r.connections.countByCompany(w.c2)).to.equal(1);
        await r.connections.update({ ...second, status: 'qrcode', qrcode: 'QR', pairingCode: 'ABCD1234', secrets: { a: 'b' }, promptId: 7, updatedAt: at(1) });
        const again = await r.connections.findById(w.c1, second.id);
        expect(again).to.deep.include({ status: 'qrcode', qrcode: 'QR', pairingCode: 'ABCD1234', promptId: 7 });
        await r.connections.update({ ...again!, promptId: null });
        expect((await r.connections.findById(w.c1, second.id))?.promptId).to.equal(null);
        expect(again!.secrets).to.deep.equal({ a: 'b' });
        expect(again!.updatedAt.toISOString()).to.equal(at(1).toISOString());
        await r.connections.remove(w.c2, second.id);
        expect(await r.connections.findById(w.c1, second.id)).to.not.equal(null);
        await r.connections.remove(w.c1, second.id);
        expect(await r.connections.findById(w.c1, second.id)).to.equal(null);
        expect(await r.connections.countByCompany(w.c1)).to.equal(1);
      });
    });

    describe('contacts', () => {
      it('gets or creates by number per company, keeping the stored contact, and finds within the company only', async () => {
        await given();
        const draft = contactDraft(w.c1, '5511988887777', { name: 'Group', isGroup: true, profilePicUrl: 'https://pic.test/1.jpg', email: 'g@x.test' });
        const created = await r.contacts.getOrCreate(draft);
        expect(created).to.deep.equal({ ...draft, id: created.id });
        const again = await r.contacts.getOrCreate({ ...draft, name: 'Renamed', createdAt: at(9) });
        expect({ ...again }).to.deep.equal({ ...draft, id: created.id });
        expect(again.createdAt.toISOString()).to.equal(T0.toISOString());
        const elsewhere = await r.contacts.getOrCreate({ ...draft, companyId: w.c2 });
        expect(elsewhere.id).to.not.equal(created.id);
        expect((await r.contacts.findById(w.c1, created.id))?.name).to.equal('Group');
        expect(await r.contacts.findById(w.c2, created.id)).to.equal(null);
        expect((await r.contacts.findByNumber(w.c1, '5511988887777'))?.id).to.equal(created.id);
        expect((await r.contacts.findByNumber(w.c2, '5511988887777'))?.id).to.equal(elsewhere.id);
        expect(await r.contacts.findByNumber(w.c1, '000')).to.equal(null);
      });

      it('ten concurrent get-or-creates of one number yield one contact', async () => {
        await given();
        const got = await times(10, (i) => r.contacts.getOrCreate(contactDraft(w.c1, '5511977776666', { name: `Racer ${i}` })));
        expect(new Set(got.map((c) => c.id)).size).to.equal(1);
        expect((await r.contacts.findByNumber(w.c1, '5511977776666'))?.id).to.equal(got[0]!.id);
      });
    });

    describe('tickets', () => {
      const keyOf = () => ({ companyId: w.c1, contactId: w.contact.id, connectionId: w.conn1 });

      it('stores every field and finds by id and uuid within the company only', async () => {
        await given();
        const found = await r.tickets.findById(w.c1, w.ticket.id);
        expect({ ...found }).to.deep.equal({ ...w.ticket });
        expect(w.ticket).to.include({ uuid: uuid(1), status: 'pending', unreadMessages: 0, lastMessage: '', greetedAt: null, closedAt: null });
        expect(found!.createdAt.toISOString()).to.equal(T0.toISOString());
        expect((await r.tickets.findByUuid(w.c1, uuid(1)))?.id).to.equal(w.ticket.id);
        expect(await r.tickets.findById(w.c2, w.ticket.id)).to.equal(null);
        expect(await r.tickets.findByUuid(w.c2, uuid(1))).to.equal(null);
        expect(await r.tickets.findByUuid(w.c1, uuid(99))).to.equal(null);
        expect(await r.tickets.findByUuid(w.c1, 'not-a-uuid')).to.equal(null);
      });

      it('gets the active ticket instead of creating another, and updates it', async () => {
        await given();
        const again = await r.tickets.getOrCreateActive(ticketDraft({ ...keyOf(), uuid: uuid(2) }));
        expect(again.created).to.equal(false);
        expect(again.ticket.id).to.equal(w.ticket.id);
        expect(again.ticket.uuid).to.equal(uuid(1));
        await r.tickets.update({ ...w.ticket, status: 'open', unreadMessages: 3, lastMessage: 'oi', queueId: 7, isGroup: true, updatedAt: at(2) });
        const active = await r.tickets.findActive(w.c1, w.contact.id, w.conn1);
        expect(active).to.deep.include({ id: w.ticket.id, status: 'open', unreadMessages: 3, lastMessage: 'oi', queueId: 7, isGroup: true });
        expect(active!.updatedAt.toISOString()).to.equal(at(2).toISOString());
        expect(await r.tickets.findActive(w.c2, w.contact.id, w.conn1)).to.equal(null);
        expect(await r.tickets.findActive(w.c1, w.contact.id, w.conn2)).to.equal(null);
      });

      it('after closing the active ticket a new one is created, and the latest closed one is found', async () => {
        await given();
        await r.tickets.update({ ...w.ticket, status: 'closed', closedAt: at(10) });
        expect(await r.tickets.findActive(w.c1, w.contact.id, w.conn1)).to.equal(null);
        const second = await r.tickets.getOrCreateActive(ticketDraft({ ...keyOf(), uuid: uuid(2) }, { createdAt: at(11) }));
        expect(second.created).to.equal(true);
        expect(second.ticket.id).to.not.equal(w.ticket.id);
        expect((await r.tickets.findActive(w.c1, w.contact.id, w.conn1))?.id).to.equal(second.ticket.id);
        await r.tickets.update({ ...second.ticket, status: 'closed', closedAt: at(20) });
        const latest = await r.tickets.findLatestClosed(w.c1, w.contact.id, w.conn1);
        expect(latest?.id).to.equal(second.ticket.id);
        expect(latest!.closedAt!.toISOString()).to.equal(at(20).toISOString());
        expect(await r.tickets.findLatestClosed(w.c2, w.contact.id, w.conn1)).to.equal(null);
        const third = await r.tickets.getOrCreateActive(ticketDraft({ ...keyOf(), uuid: uuid(3) }));
        expect(third.created).to.equal(true);
      });

      it('ten concurrent get-or-create-actives yield one ticket, created once', async () => {
        await given();
        const contact = await r.contacts.getOrCreate(contactDraft(w.c1, '5511966665555'));
        const got = await times(10, (i) =>
          r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c1, contactId: contact.id, connectionId: w.conn1, uuid: uuid(100 + i) })),
        );
        expect(new Set(got.map((g) => g.ticket.id)).size).to.equal(1);
        expect(got.filter((g) => g.created)).to.have.length(1);
        expect((await r.tickets.findActive(w.c1, contact.id, w.conn1))?.id).to.equal(got[0]!.ticket.id);
      });

      it('marks a ticket greeted once, even when ten callers race', async () => {
        await given();
        expect(await r.tickets.markGreeted(w.ticket.id, at(1))).to.equal(true);
        expect(await r.tickets.markGreeted(w.ticket.id, at(2))).to.equal(false);
        expect((await r.tickets.findById(w.c1, w.ticket.id))!.greetedAt!.toISOString()).to.equal(at(1).toISOString());
        const contact = await r.contacts.getOrCreate(contactDraft(w.c1, '5511955554444'));
        const { ticket } = await r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c1, contactId: contact.id, connectionId: w.conn1, uuid: uuid(2) }));
        const results = await times(10, (i) => r.tickets.markGreeted(ticket.id, at(i)));
        expect(results.filter(Boolean)).to.have.length(1);
        expect(await r.tickets.markGreeted(999_999, at(1))).to.equal(false);
      });

      it('lists by company and status, newest update first, searchable in the last message without accents, paged', async () => {
        await given();
        const more = async (n: number, status: Ticket['status'], lastMessage: string, minutes: number) => {
          const contact = await r.contacts.getOrCreate(contactDraft(w.c1, `55119000000${n}`));
          const { ticket } = await r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c1, contactId: contact.id, connectionId: w.conn1, uuid: uuid(n) }));
          await r.tickets.update({ ...ticket, status, lastMessage, updatedAt: at(minutes), closedAt: status === 'closed' ? at(minutes) : null });
          return ticket.id;
        };
        const a = await more(10, 'open', 'Preciso de ajuda com a instalação', 5);
        const b = await more(11, 'pending', 'Qual o preço?', 7);
        const c = await more(12, 'closed', 'Obrigado, INSTALACAO concluída', 3);
        const contact2 = await r.contacts.getOrCreate(contactDraft(w.c2, '5511900000099'));
        await r.tickets.getOrCreateActive(
          ticketDraft({ companyId: w.c2, contactId: contact2.id, connectionId: w.conn2, uuid: uuid(20) }, { lastMessage: 'instalação' }),
        );
        const all = await r.tickets.list({ companyId: w.c1, page: page() });
        expect(all.count).to.equal(4);
        expect(all.rows.map((t) => t.id)).to.deep.equal([b, a, c, w.ticket.id]);
        expect((await r.tickets.list({ companyId: w.c1, status: 'pending', page: page() })).rows.map((t) => t.id)).to.deep.equal([b, w.ticket.id]);
        expect((await r.tickets.list({ companyId: w.c1, search: 'instalacao', page: page() })).rows.map((t) => t.id)).to.deep.equal([a, c]);
        expect((await r.tickets.list({ companyId: w.c1, status: 'closed', search: 'Instalação', page: page() })).rows.map((t) => t.id)).to.deep.equal([c]);
        expect((await r.tickets.list({ companyId: w.c1, search: '100%', page: page() })).count).to.equal(0);
        const second = await r.tickets.list({ companyId: w.c1, page: page(1, 2) });
        expect(second.count).to.equal(4);
        expect(second.rows.map((t) => t.id)).to.deep.equal([a, c]);
        expect((await r.tickets.list({ companyId: w.c2, page: page() })).count).to.equal(1);
      });
    });

    describe('messages', () => {
      it('stores every field and finds by id within the company and by provider id on the connection', async () => {
        await given();
        const media = { key: 'm/1.jpg', url: 'https://files.test/m/1.jpg', contentType: 'image/jpeg', filename: '1.jpg', size: 1234 };
        const quoted = messageFixture(w.ticket, uuid(50));
        await r.messages.add(quoted);
        const m = messageFixture(w.ticket, uuid(51), {
          providerMessageId: 'P-1',
          fromMe: true,
          body: 'Olá',
          media,
          status: 'sent',
          quotedMessageId: uuid(50),
          isPrivate: true,
          updatedAt: at(1),
        });
        await r.messages.add(m);
        const found = await r.messages.findById(w.c1, uuid(51));
        expect({ ...found }).to.deep.equal(m);
        expect(found!.createdAt.toISOString()).to.equal(T0.toISOString());
        expect(await r.messages.findById(w.c2, uuid(51))).to.equal(null);
        expect(await r.messages.findById(w.c1, uuid(52))).to.equal(null);
        expect(await r.messages.findById(w.c1, 'not-a-uuid')).to.equal(null);
        expect((await r.messages.findByProviderId(w.conn1, 'P-1'))?.id).to.equal(uuid(51));
        expect(await r.messages.findByProviderId(w.conn2, 'P-1')).to.equal(null);
        expect(await r.messages.findByProviderId(w.conn1, 'P-2')).to.equal(null);
      });

      it('adds an inbound message once per provider id and connection', async () => {
        await given();
        expect(await r.messages.addInbound(messageFixture(w.ticket, uuid(60), { providerMessageId: 'P-1', body: 'first' }))).to.equal(true);
        expect(await r.messages.addInbound(messageFixture(w.ticket, uuid(61), { providerMessageId: 'P-1', body: 'again' }))).to.equal(false);
        expect(await r.messages.findById(w.c1, uuid(61))).to.equal(null);
        expect((await r.messages.findByProviderId(w.conn1, 'P-1'))?.body).to.equal('first');
        const contact2 = await r.contacts.getOrCreate(contactDraft(w.c2, '5511900000099'));
        const { ticket } = await r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c2, contactId: contact2.id, connectionId: w.conn2, uuid: uuid(2) }));
        expect(await r.messages.addInbound(messageFixture(ticket, uuid(62), { providerMessageId: 'P-1' }))).to.equal(true);
        const media = { key: 'k', url: 'u', contentType: 'audio/ogg', filename: 'a.ogg', size: 9 };
        expect(await r.messages.addInbound(messageFixture(w.ticket, uuid(63), { providerMessageId: 'P-3', media, createdAt: at(3) }))).to.equal(true);
        const stored = await r.messages.findById(w.c1, uuid(63));
        expect(stored!.media).to.deep.equal(media);
        expect(stored!.createdAt.toISOString()).to.equal(at(3).toISOString());
        // A shared location keeps its kind (its body holds it).
        const shared = messageFixture(w.ticket, uuid(64), {
          providerMessageId: 'P-4',
          body: '|https://www.openstreetmap.org/?mlat=1&mlon=2|',
          kind: 'location',
        });
        expect(await r.messages.addInbound(shared)).to.equal(true);
        expect({ ...(await r.messages.findById(w.c1, uuid(64))) }).to.deep.equal(shared);
      });

      it('ten concurrent inbound copies of one provider message store it once', async () => {
        await given();
        const results = await times(10, (i) => r.messages.addInbound(messageFixture(w.ticket, uuid(70 + i), { providerMessageId: 'DUP' })));
        expect(results.filter(Boolean)).to.have.length(1);
        expect((await r.messages.listByTicket(w.c1, w.ticket.id, page())).count).to.equal(1);
      });

      it('advances a delivery status forward only, in one step, recording the provider id once and a failure only from pending', async () => {
        await given();
        await r.messages.add(messageFixture(w.ticket, uuid(100), { fromMe: true }));
        const step = (status: Message['status'], extra: { providerMessageId?: string; failureReason?: string } = {}, minute = 1) =>
          advance({ companyId: w.c1, target: { id: uuid(100) }, status, ...extra, at: at(minute) });
        const sent = await step('sent', { providerMessageId: 'P-100' });
        expect(sent).to.deep.include({ status: 'sent', providerMessageId: 'P-100' });
        expect(sent!.updatedAt.toISOString()).to.equal(at(1).toISOString());
        expect({ ...(await r.messages.findById(w.c1, uuid(100))) }).to.deep.equal(sent);
        expect(await step('sent', { providerMessageId: 'P-other' })).to.equal(null);
        expect(await step('failed', { failureReason: 'late' })).to.equal(null);
        expect(await step('pending')).to.equal(null);
        const read = await advance({ companyId: w.c1, target: { connectionId: w.conn1, providerMessageId: 'P-100' }, status: 'read', at: at(2) });
        expect(read).to.deep.include({ status: 'read', providerMessageId: 'P-100', failureReason: null });
        expect(await step('delivered')).to.equal(null);
        expect(await advance({ companyId: w.c2, target: { id: uuid(100) }, status: 'played', at: at(3) })).to.equal(null);
        expect(await advance({ companyId: w.c2, target: { connectionId: w.conn1, providerMessageId: 'P-100' }, status: 'played', at: at(3) })).to.equal(null);
        expect(await advance({ companyId: w.c1, target: { id: uuid(199) }, status: 'sent', at: at(3) })).to.equal(null);
        expect(await advance({ companyId: w.c1, target: { id: 'not-a-uuid' }, status: 'sent', at: at(3) })).to.equal(null);
        expect((await r.messages.findById(w.c1, uuid(100)))!.status).to.equal('read');

        await r.messages.add(messageFixture(w.ticket, uuid(101), { fromMe: true }));
        const failed = await advance({ companyId: w.c1, target: { id: uuid(101) }, status: 'failed', failureReason: 'ERR_SESSION_NOT_CONNECTED', at: at(4) });
        expect(failed).to.deep.include({ status: 'failed', failureReason: 'ERR_SESSION_NOT_CONNECTED' });
        expect(await advance({ companyId: w.c1, target: { id: uuid(101) }, status: 'delivered', at: at(5) })).to.equal(null);
        expect(await advance({ companyId: w.c1, target: { id: uuid(101) }, status: 'failed', failureReason: 'again', at: at(5) })).to.equal(null);
        expect((await r.messages.findById(w.c1, uuid(101)))!.failureReason).to.equal('ERR_SESSION_NOT_CONNECTED');
      });

      it('twenty delivery reports racing in any order end at the furthest status, each step reported once', async () => {
        await given();
        await r.messages.add(messageFixture(w.ticket, uuid(110), { fromMe: true }));
        const statuses = ['read', 'sent', 'delivered', 'sent', 'read', 'delivered', 'sent', 'delivered', 'read', 'sent'] as const;
        const changed = await times(20, (i) => advance({ companyId: w.c1, target: { id: uuid(110) }, status: statuses[i % statuses.length]!, at: at(1) }));
        const steps = changed.filter((m) => m !== null).map((m) => m!.status);
        expect(steps).to.include('read');
        expect(new Set(steps).size).to.equal(steps.length);
        expect((await r.messages.findById(w.c1, uuid(110)))!.status).to.equal('read');
      });

      it("applies a batch of delivery changes in one call: a message's changes in the order given, by id or by provider id, one answer per change", async () => {
        await given();
        for (const n of [130, 131, 132]) await r.messages.add(messageFixture(w.ticket, uuid(n), { fromMe: true }));
        await r.messages.add(messageFixture(w.ticket, uuid(133), { fromMe: true, status: 'sent', providerMessageId: 'P-133' }));
        const change = (target: DeliveryChange['target'], status: Message['status'], extra: Partial<DeliveryChange> = {}): DeliveryChange => ({
          companyId: w.c1,
          target,
          status,
          at: at(1),
          ...extra,
        });
        const answers = await r.messages.advanceStatuses([
          change({ id: uuid(130) }, 'sent', { providerMessageId: 'P-130' }),
          change({ id: uuid(131) }, 'read'),
          change({ id: uuid(130) }, 'delivered', { at: at(2) }),
          change({ id: uuid(131) }, 'delivered'),
          change({ connectionId: w.conn1, providerMessageId: 'P-133' }, 'read', { at: at(3) }),
          change({ id: uuid(132) }, 'failed', { failureReason: 'ERR_X' }),
          change({ id: uuid(132) }, 'sent'),
          change({ id: uuid(130) }, 'played', { companyId: w.c2 }),
          change({ id: 'not-a-uuid' }, 'sent'),
          change({ connectionId: w.conn1, providerMessageId: 'P-unknown' }, 'read'),
          change({ id: uuid(130) }, 'sent'),
        ]);
        expect(answers.map((m) => m && m.status)).to.deep.equal(['sent', 'read', 'delivered', null, 'read', 'failed', null, null, null, null, null]);
        expect(answers[0]).to.deep.include({ id: uuid(130), providerMessageId: 'P-130' });
        expect(answers[2]!.updatedAt.toISOString()).to.equal(at(2).toISOString());
        expect(answers[4]).to.deep.include({ id: uuid(133), providerMessageId: 'P-133' });
        expect(answers[4]!.updatedAt.toISOString()).to.equal(at(3).toISOString());
        expect(answers[5]).to.deep.include({ id: uuid(132), failureReason: 'ERR_X' });
        expect({ ...(await r.messages.findById(w.c1, uuid(130))) }).to.deep.equal({ ...answers[2] });
        expect((await r.messages.findById(w.c1, uuid(131)))!.status).to.equal('read');
        expect((await r.messages.findById(w.c1, uuid(132)))!.status).to.equal('failed');
        expect(await r.messages.advanceStatuses([])).to.deep.equal([]);
      });

      it('fails our sends still pending from before a time, oldest first and limited, leaving everything else alone', async () => {
        await given();
        await r.messages.add(messageFixture(w.ticket, uuid(120), { fromMe: true, createdAt: at(1) }));
        await r.messages.add(messageFixture(w.ticket, uuid(121), { fromMe: true, createdAt: at(2) }));
        await r.messages.add(messageFixture(w.ticket, uuid(122), { fromMe: true, createdAt: at(3), status: 'sent' }));
        await r.messages.add(messageFixture(w.ticket, uuid(123), { fromMe: false, createdAt: at(1) }));
        await r.messages.add(messageFixture(w.ticket, uuid(124), { fromMe: true, isPrivate: true, createdAt: at(1) }));
        await r.messages.add(messageFixture(w.ticket, uuid(125), { fromMe: true, createdAt: at(9) }));
        const first = await r.messages.failStaleSends(at(5), 'ERR_SEND_DEADLINE_EXCEEDED', at(10), 1);
        expect(first.map((m) => [m.id, m.status, m.failureReason])).to.deep.equal([[uuid(120), 'failed', 'ERR_SEND_DEADLINE_EXCEEDED']]);
        expect(first[0]!.updatedAt.toISOString()).to.equal(at(10).toISOString());
        expect((await r.messages.failStaleSends(at(5), 'ERR_SEND_DEADLINE_EXCEEDED', at(10), 10)).map((m) => m.id)).to.deep.equal([uuid(121)]);
        expect(await r.messages.failStaleSends(at(5), 'ERR_SEND_DEADLINE_EXCEEDED', at(10), 10)).to.deep.equal([]);
        for (const [n, status] of [
          [122, 'sent'],
          [123, 'pending'],
          [124, 'pending'],
          [125, 'pending'],
        ] as const) {
          expect((await r.messages.findById(w.c1, uuid(n)))!.status).to.equal(status);
        }
      });

      it('messages without a provider id coexist', async () => {
        await given();
        await r.messages.add(messageFixture(w.ticket, uuid(80)));
        await r.messages.add(messageFixture(w.ticket, uuid(81)));
        expect(await r.messages.addInbound(messageFixture(w.ticket, uuid(82)))).to.equal(true);
        expect(await r.messages.addInbound(messageFixture(w.ticket, uuid(83)))).to.equal(true);
        expect((await r.messages.listByTicket(w.c1, w.ticket.id, page())).count).to.equal(4);
      });

      it('updates a message and lists a ticket newest first, paged, within the company only', async () => {
        await given();
        for (let i = 0; i < 3; i++) await r.messages.add(messageFixture(w.ticket, uuid(90 + i), { body: `m${i}`, createdAt: at(i) }));
        const m = (await r.messages.findById(w.c1, uuid(90)))!;
        await r.messages.update({ ...m, status: 'failed', failureReason: 'blocked', providerMessageId: 'P-9', updatedAt: at(9) });
        const again = await r.messages.findById(w.c1, uuid(90));
        expect(again).to.deep.include({ status: 'failed', failureReason: 'blocked', providerMessageId: 'P-9' });
        expect(again!.updatedAt.toISOString()).to.equal(at(9).toISOString());
        const list = await r.messages.listByTicket(w.c1, w.ticket.id, page());
        expect(list.rows.map((x) => x.body)).to.deep.equal(['m2', 'm1', 'm0']);
        const second = await r.messages.listByTicket(w.c1, w.ticket.id, page(1, 1));
        expect(second).to.deep.include({ count: 3 });
        expect(second.rows.map((x) => x.body)).to.deep.equal(['m1']);
        expect((await r.messages.listByTicket(w.c2, w.ticket.id, page())).count).to.equal(0);
      });
    });

    describe('ticket filters, counts and removal', () => {
      /** A ticket of a fresh contact in the first company, with the given fields. */
      async function ticketWith(n: number, fields: Partial<Ticket>, contact: Partial<Contact> = {}) {
        const c = await r.contacts.getOrCreate(contactDraft(w.c1, `55118000000${n}`, contact));
        const { ticket } = await r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c1, contactId: c.id, connectionId: w.conn1, uuid: uuid(600 + n) }));
        const saved = { ...ticket, ...fields };
        await r.tickets.update(saved);
        return saved.id;
      }

      it('refuses to make a second ticket of a contact active on a connection (ERR_OTHER_OPEN_TICKET)', async () => {
        await given();
        await r.tickets.update({ ...w.ticket, status: 'closed', closedAt: at(1) });
        const second = await r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c1, contactId: w.contact.id, connectionId: w.conn1, uuid: uuid(2) }));
        expect(second.created).to.equal(true);
        const error = await r.tickets.update({ ...w.ticket, status: 'open', closedAt: null }).then(
          () => null,
          (e: { code?: string }) => e,
        );
        expect(error?.code).to.equal('ERR_OTHER_OPEN_TICKET');
        expect((await r.tickets.findById(w.c1, w.ticket.id))!.status).to.equal('closed');
        await r.tickets.update({ ...second.ticket, status: 'open', unreadMessages: 2 });
        expect((await r.tickets.findById(w.c1, second.ticket.id))!.unreadMessages).to.equal(2);
      });

      it('applies every filter together and counts what the list selects', async () => {
        await given();
        const u1 = (await r.users.add(userFixture(w.c1, 'u1@one.test'))).id;
        const u2 = (await r.users.add(userFixture(w.c1, 'u2@one.test'))).id;
        const conn3 = (await r.connections.add(connectionFixture(w.c1, 'Third'))).id;
        const mine = await ticketWith(
          1,
          { status: 'open', userId: u1, queueId: 3, unreadMessages: 2, createdAt: at(60), updatedAt: at(70) },
          { name: 'Zoë Müller' },
        );
        const theirs = await ticketWith(2, { status: 'open', userId: u2, queueId: 4, createdAt: at(24 * 60), updatedAt: at(24 * 60 + 5) });
        const closed = await ticketWith(3, { status: 'closed', userId: u1, closedAt: at(5), isGroup: true, updatedAt: at(5) });
        const c4 = await r.contacts.getOrCreate(contactDraft(w.c1, '5511800000004'));
        const other = (
          await r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c1, contactId: c4.id, connectionId: conn3, uuid: uuid(604) }, { updatedAt: at(1) }))
        ).ticket.id;
        const ids = async (f: Partial<Parameters<Tickets['count']>[0]>) => {
          const filter = { companyId: w.c1, ...f };
          const page = await r.tickets.list({ ...filter, page: page0 });
          expect(await r.tickets.count(filter), JSON.stringify(f)).to.equal(page.count);
          return page.rows.map((t) => t.id);
        };
        const page0 = page();
        expect(await ids({})).to.deep.equal([theirs, mine, closed, other, w.ticket.id]);
        expect(await ids({ pendingOrAssignedTo: u1 })).to.deep.equal([mine, closed, other, w.ticket.id]);
        expect(await ids({ pendingOrAssignedTo: u1, status: 'open' })).to.deep.equal([mine]);
        expect(await ids({ userIds: [u1, u2] })).to.deep.equal([theirs, mine, closed]);
        expect(await ids({ queueIds: [4, 99] })).to.deep.equal([theirs]);
        expect(await ids({ connectionId: conn3 })).to.deep.equal([other]);
        expect(await ids({ withUnreadMessages: true })).to.deep.equal([mine]);
        expect(await ids({ isGroup: true })).to.deep.equal([closed]);
        expect(await ids({ isGroup: false, status: 'pending' })).to.deep.equal([other, w.ticket.id]);
        expect(await ids({ createdFrom: at(60), createdTo: at(24 * 60) })).to.deep.equal([mine]);
        expect(await ids({ createdFrom: at(60) })).to.deep.equal([theirs, mine]);
        expect(await ids({ updatedFrom: at(1), updatedTo: at(6) })).to.deep.equal([closed, other]);
        expect(await ids({ search: 'zoe MULLER' })).to.deep.equal([mine]);
        expect(await ids({ search: '5511800000004' })).to.deep.equal([other]);
        expect(await ids({ search: '1180000' })).to.have.length(4);
        expect(await ids({ userIds: [u1], search: '5511800000004' })).to.deep.equal([]);
        expect(await r.tickets.count({ companyId: w.c2 })).to.equal(0);
      });

      it('removes a ticket only within its company', async () => {
        await given();
        await r.tickets.remove(w.c2, w.ticket.id);
        expect(await r.tickets.findById(w.c1, w.ticket.id)).to.not.equal(null);
        await r.tickets.remove(w.c1, w.ticket.id);
        expect(await r.tickets.findById(w.c1, w.ticket.id)).to.equal(null);
        expect(await r.tickets.findActive(w.c1, w.contact.id, w.conn1)).to.equal(null);
      });
    });

    describe('message lists, counts, flags and removal', () => {
      it('stores the edit and revoke flags', async () => {
        await given();
        await r.messages.add(messageFixture(w.ticket, uuid(700), { fromMe: true, body: 'first' }));
        const m = (await r.messages.findById(w.c1, uuid(700)))!;
        expect(m).to.include({ isDeleted: false, isEdited: false, editedAt: null });
        await r.messages.update({ ...m, body: 'second', isEdited: true, editedAt: at(3), isDeleted: true, updatedAt: at(3) });
        const again = (await r.messages.findById(w.c1, uuid(700)))!;
        expect(again).to.include({ body: 'second', isEdited: true, isDeleted: true });
        expect(again.editedAt!.toISOString()).to.equal(at(3).toISOString());
        expect(await r.messages.addInbound(messageFixture(w.ticket, uuid(701), { providerMessageId: 'IN', isEdited: true, editedAt: at(4) }))).to.equal(true);
        expect((await r.messages.findById(w.c1, uuid(701)))!.editedAt!.toISOString()).to.equal(at(4).toISOString());
      });

      it("stores a transcription on its message alone: a delivery report meanwhile keeps its change, another company's id changes nothing", async () => {
        await given();
        await r.messages.add(messageFixture(w.ticket, uuid(710), { fromMe: true, status: 'sent', body: 'voice note' }));
        const read = await advance({ companyId: w.c1, target: { id: uuid(710) }, status: 'read', at: at(1) });
        expect(read!.transcription).to.equal(null);
        const saved = await r.messages.setTranscription(w.c1, uuid(710), 'olá, tudo bem?', at(2));
        expect(saved).to.include({ transcription: 'olá, tudo bem?', status: 'read', body: 'voice note' });
        expect(saved!.updatedAt.toISOString()).to.equal(at(2).toISOString());
        expect({ ...(await r.messages.findById(w.c1, uuid(710))) }).to.deep.equal({ ...saved });
        expect(await r.messages.setTranscription(w.c2, uuid(710), 'alheio', at(3))).to.equal(null);
        expect(await r.messages.setTranscription(w.c1, 'not-a-uuid', 'x', at(3))).to.equal(null);
        expect((await r.messages.findById(w.c1, uuid(710)))!.transcription).to.equal('olá, tudo bem?');
      });

      it("settles a contact's pending file once, within the company, and nothing else of the message", async () => {
        await given();
        const pending = { key: '', url: '', contentType: 'image/png', filename: 'image-1.png', size: 0, status: 'pending' as const };
        await r.messages.add(messageFixture(w.ticket, uuid(720), { body: 'my receipt', media: pending }));
        expect((await r.messages.findById(w.c1, uuid(720)))!.media).to.deep.equal(pending);
        const stored = { key: 'public/company-1/media/x-image-1.png', url: 'https://files/x', contentType: 'image/png', filename: 'image-1.png', size: 3 };
        expect(await r.messages.settleMedia(w.c2, uuid(720), stored, at(1))).to.equal(null);
        expect(await r.messages.settleMedia(w.c1, 'not-a-uuid', stored, at(1))).to.equal(null);
        const saved = await r.messages.settleMedia(w.c1, uuid(720), stored, at(2));
        expect(saved).to.deep.include({ body: 'my receipt', media: stored });
        expect(saved!.updatedAt.toISOString()).to.equal(at(2).toISOString());
        // Settled already: a second run (or a failure arriving late) changes nothing.
        expect(await r.messages.settleMedia(w.c1, uuid(720), { ...pending, status: 'failed', error: 'ERR_MEDIA_UNAVAILABLE' }, at(3))).to.equal(null);
        expect((await r.messages.findById(w.c1, uuid(720)))!.media).to.deep.equal(stored);
        // A message without a pending file is never given one.
        await r.messages.add(messageFixture(w.ticket, uuid(721), { body: 'text' }));
        expect(await r.messages.settleMedia(w.c1, uuid(721), stored, at(4))).to.equal(null);
      });

      it("lists by ticket, sender and media newest first, counts per ticket, removes a ticket's messages within the company", async () => {
        await given();
        const u1 = (await r.users.add(userFixture(w.c1, 'u1@one.test'))).id;
        const media = { key: 'k', url: 'u', contentType: 'image/png', filename: 'a.png', size: 3 };
        const c2 = await r.contacts.getOrCreate(contactDraft(w.c1, '5511700000001'));
        const { ticket: t2 } = await r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c1, contactId: c2.id, connectionId: w.conn1, uuid: uuid(2) }));
        await r.messages.add(messageFixture(w.ticket, uuid(710), { body: 'in', createdAt: at(1) }));
        await r.messages.add(messageFixture(w.ticket, uuid(711), { body: 'reply', fromMe: true, userId: u1, createdAt: at(2) }));
        await r.messages.add(messageFixture(w.ticket, uuid(712), { body: 'file', fromMe: true, userId: u1, media, createdAt: at(3) }));
        await r.messages.add(messageFixture(t2, uuid(713), { body: 'elsewhere', fromMe: true, userId: u1, createdAt: at(4) }));
        const bodies = async (q: Omit<Parameters<Messages['list']>[0], 'page'>, p = page()) => {
          const res = await r.messages.list({ ...q, page: p });
          return { count: res.count, bodies: res.rows.map((m) => m.body) };
        };
        expect(await bodies({ companyId: w.c1, ticketId: w.ticket.id })).to.deep.equal({ count: 3, bodies: ['file', 'reply', 'in'] });
        expect(await bodies({ companyId: w.c1, userId: u1 })).to.deep.equal({ count: 3, bodies: ['elsewhere', 'file', 'reply'] });
        expect(await bodies({ companyId: w.c1, userId: u1 }, page(1, 1))).to.deep.equal({ count: 3, bodies: ['file'] });
        expect(await bodies({ companyId: w.c1, ticketId: w.ticket.id, withMedia: true })).to.deep.equal({ count: 1, bodies: ['file'] });
        expect(await bodies({ companyId: w.c2, userId: u1 })).to.deep.equal({ count: 0, bodies: [] });
        // The dashboard's counters: ours or the contacts', in a range (end excluded), in an operator's tickets.
        await r.tickets.update({ ...(await r.tickets.findById(w.c1, t2.id))!, userId: u1 });
        const count = (f: Omit<Parameters<Messages['count']>[0], 'companyId'>, companyId = w.c1) => r.messages.count({ companyId, ...f });
        expect([await count({}), await count({ fromMe: true }), await count({ fromMe: false })]).to.deep.equal([4, 3, 1]);
        expect([await count({ from: at(2) }), await count({ to: at(2) }), await count({ from: at(2), to: at(4), fromMe: true })]).to.deep.equal([3, 1, 2]);
        expect([await count({ ticketUserId: u1 }), await count({ ticketUserId: u1, fromMe: false }), await count({ ticketUserId: 999_999 })]).to.deep.equal([
          1, 0, 0,
        ]);
        expect(await count({}, w.c2)).to.equal(0);
        const counts = await r.messages.countByTickets(w.c1, [w.ticket.id, t2.id, 999_999]);
        expect([...counts.entries()].sort()).to.deep.equal(
          [
            [w.ticket.id, 3],
            [t2.id, 1],
          ].sort(),
        );
        expect((await r.messages.countByTickets(w.c2, [w.ticket.id])).size).to.equal(0);
        expect((await r.messages.countByTickets(w.c1, [])).size).to.equal(0);
        await r.messages.removeByTicket(w.c2, w.ticket.id);
        expect((await r.messages.listByTicket(w.c1, w.ticket.id, page())).count).to.equal(3);
        await r.messages.removeByTicket(w.c1, w.ticket.id);
        expect((await r.messages.listByTicket(w.c1, w.ticket.id, page())).count).to.equal(0);
        expect((await r.messages.listByTicket(w.c1, t2.id, page())).count).to.equal(1);
      });
    });

    describe('ticket logs', () => {
      it("adds entries and lists a ticket's oldest first, within the company, even after the ticket is gone", async () => {
        await given();
        const u1 = (await r.users.add(userFixture(w.c1, 'u1@one.test'))).id;
        const base = { companyId: w.c1, ticketId: w.ticket.id };
        const second = await r.ticketLogs.add({
          ...base,
          userId: u1,
          type: 'accept',
          payload: { from: { status: 'pending' }, list: [1, 'x'] },
          createdAt: at(2),
        });
        const first = await r.ticketLogs.add({ ...base, userId: null, type: 'create', payload: {}, createdAt: at(1) });
        const third = await r.ticketLogs.add({ ...base, userId: u1, type: 'close', payload: { rating: 5 }, createdAt: at(2) });
        await r.ticketLogs.add({ companyId: w.c1, ticketId: 999_999, userId: null, type: 'create', payload: {}, createdAt: at(1) });
        expect(second).to.deep.include({ type: 'accept', userId: u1 });
        expect(second.id).to.be.a('number');
        const logs = await r.ticketLogs.listByTicket(w.c1, w.ticket.id);
        expect(logs.map((l) => l.id)).to.deep.equal([first.id, second.id, third.id]);
        expect(logs[1]!.payload).to.deep.equal({ from: { status: 'pending' }, list: [1, 'x'] });
        expect(logs[2]).to.deep.include({ type: 'close', userId: u1, ticketId: w.ticket.id, companyId: w.c1 });
        expect(logs[0]!.createdAt.toISOString()).to.equal(at(1).toISOString());
        expect(await r.ticketLogs.listByTicket(w.c2, w.ticket.id)).to.deep.equal([]);
        await r.ticketLogs.add({ ...base, userId: u1, type: 'delete', payload: {}, createdAt: at(3) });
        await r.tickets.remove(w.c1, w.ticket.id);
        expect((await r.ticketLogs.listByTicket(w.c1, w.ticket.id)).map((l) => l.type)).to.deep.equal(['create', 'accept', 'close', 'delete']);
      });
    });

    describe('message contexts', () => {
      it('reads the tickets and contacts of the company that message views embed, and nothing of another company', async () => {
        await given();
        const other = await r.contacts.getOrCreate(contactDraft(w.c2, '5511999990002', { name: 'Outra', profilePicUrl: 'https://p.test/o.jpg' }));
        const { ticket: theirs } = await r.tickets.getOrCreateActive(
          ticketDraft({ companyId: w.c2, contactId: other.id, connectionId: w.conn2, uuid: uuid(3) }),
        );
        await r.tickets.update({ ...w.ticket, status: 'open', userId: null });
        const read = await r.contextReads.ticketsAndContacts(w.c1, [w.ticket.id, theirs.id, w.ticket.id, 999_999], [w.contact.id, other.id]);
        expect(read.tickets).to.deep.equal([{ id: w.ticket.id, uuid: uuid(1), status: 'open', userId: null, queueId: null, chatappId: w.conn1, queue: null }]);
        expect(read.contacts).to.deep.equal([{ id: w.contact.id, name: w.contact.name, number: '5511999990001', urlPicture: null }]);
        expect(await r.contextReads.ticketsAndContacts(w.c2, [theirs.id], [other.id])).to.deep.equal({
          tickets: [{ id: theirs.id, uuid: uuid(3), status: 'pending', userId: null, queueId: null, chatappId: w.conn2, queue: null }],
          contacts: [{ id: other.id, name: 'Outra', number: '5511999990002', urlPicture: 'https://p.test/o.jpg' }],
        });
        expect(await r.contextReads.ticketsAndContacts(w.c1, [], [])).to.deep.equal({ tickets: [], contacts: [] });
        expect(await r.contextReads.ticketsAndContacts(w.c1, [], [w.contact.id])).to.deep.equal({ tickets: [], contacts: [read.contacts[0]] });
      });
    });

    describe('outbox', () => {
      it('returns unpublished entries oldest first, limited, until they are published', async () => {
        await given();
        await r.outbox.add({ id: uuid(201), subject: 'b', payload: { n: 2, list: [1, 'x'] }, createdAt: at(2) });
        await r.outbox.add({ id: uuid(200), subject: 'a', payload: { n: 1 }, createdAt: at(1) });
        await r.outbox.add({ id: uuid(203), subject: 'c1', payload: [3], createdAt: at(3) });
        await r.outbox.add({ id: uuid(202), subject: 'c2', payload: 'text', createdAt: at(3) });
        const all = await r.outbox.pending(10);
        expect(all.map((e) => e.subject)).to.deep.equal(['a', 'b', 'c1', 'c2']);
        expect(all[1]).to.deep.include({ id: uuid(201), payload: { n: 2, list: [1, 'x'] } });
        expect(all[2]!.payload).to.deep.equal([3]);
        expect(all[3]!.payload).to.equal('text');
        expect(all[0]!.createdAt.toISOString()).to.equal(at(1).toISOString());
        expect((await r.outbox.pending(2)).map((e) => e.id)).to.deep.equal([uuid(200), uuid(201)]);
        await r.outbox.markPublished([uuid(200), uuid(203)], at(5));
        expect((await r.outbox.pending(10)).map((e) => e.subject)).to.deep.equal(['b', 'c2']);
        await r.outbox.markPublished([], at(6));
        await r.outbox.markPublished([uuid(201), uuid(202)], at(6));
        expect(await r.outbox.pending(10)).to.deep.equal([]);
      });

      it('adds several entries at once in their order, and leaves an id already there as it was', async () => {
        await given();
        await r.outbox.addOnce([]);
        await r.outbox.addOnce([
          { id: uuid(210), subject: 'evt.inbound.1', payload: { n: 1 }, createdAt: at(1) },
          { id: uuid(211), subject: 'evt.inbound.2', payload: { n: 2 }, createdAt: at(1) },
        ]);
        await r.outbox.markPublished([uuid(210)], at(2));
        await r.outbox.addOnce([
          { id: uuid(210), subject: 'evt.inbound.1', payload: { n: 1, again: true }, createdAt: at(3) },
          { id: uuid(211), subject: 'evt.inbound.2', payload: { n: 2, again: true }, createdAt: at(3) },
          { id: uuid(212), subject: 'evt.inbound.3', payload: { n: 3 }, createdAt: at(3) },
        ]);
        const pending = await r.outbox.pending(10);
        expect(pending.map((e) => [e.id, e.payload])).to.deep.equal([
          [uuid(211), { n: 2 }],
          [uuid(212), { n: 3 }],
        ]);
      });
    });

    describe('units of work', () => {
      it('a failed transaction leaves no contact, ticket, message or outbox entry (databases only)', async function () {
        if (!r.rollsBack) this.skip();
        await given();
        await r.tx
          .run(async () => {
            const contact = await r.contacts.getOrCreate(contactDraft(w.c1, '5511944443333'));
            const { ticket } = await r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c1, contactId: contact.id, connectionId: w.conn1, uuid: uuid(2) }));
            await r.messages.addInbound(messageFixture(ticket, uuid(300), { providerMessageId: 'TX' }));
            await r.outbox.add({ id: uuid(301), subject: 's', payload: {}, createdAt: T0 });
            expect((await r.tickets.findActive(w.c1, contact.id, w.conn1))?.id).to.equal(ticket.id);
            throw new Error('boom');
          })
          .catch(() => undefined);
        expect(await r.contacts.findByNumber(w.c1, '5511944443333')).to.equal(null);
        expect(await r.tickets.findByUuid(w.c1, uuid(2))).to.equal(null);
        expect(await r.messages.findByProviderId(w.conn1, 'TX')).to.equal(null);
        expect(await r.outbox.pending(10)).to.deep.equal([]);
      });

      it('concurrent transactions routing one inbound message create one contact, one ticket and one message', async () => {
        await given();
        const outcomes = await times(6, (i) =>
          r.tx.run(async () => {
            const contact = await r.contacts.getOrCreate(contactDraft(w.c1, '5511933332222'));
            const got = await r.tickets.getOrCreateActive(ticketDraft({ companyId: w.c1, contactId: contact.id, connectionId: w.conn1, uuid: uuid(400 + i) }));
            const stored = await r.messages.addInbound(messageFixture(got.ticket, uuid(500 + i), { providerMessageId: 'ROUTED' }));
            return { contactId: contact.id, ticketId: got.ticket.id, created: got.created, stored };
          }),
        );
        expect(new Set(outcomes.map((o) => o.contactId)).size).to.equal(1);
        expect(new Set(outcomes.map((o) => o.ticketId)).size).to.equal(1);
        expect(outcomes.filter((o) => o.created)).to.have.length(1);
        expect(outcomes.filter((o) => o.stored)).to.have.length(1);
        expect((await r.messages.listByTicket(w.c1, outcomes[0]!.ticketId, page())).count).to.equal(1);
      });
    });
  });
}
