import { expect } from 'chai';
import type { Companies, Connections, Contacts, NewTag, Plans, Tags, Ticket, Tickets, Transaction } from '../../src/index.js';
import { connectionFixture, contactDraft, ticketDraft } from './messaging-contract.js';
import { companyFixture, planFixture } from './repositories-contract.js';

export interface TagsFixture {
  readonly tags: Tags;
  readonly tickets: Tickets;
  readonly contacts: Contacts;
  readonly connections: Connections;
  readonly companies: Companies;
  readonly plans: Plans;
  readonly tx: Transaction;
}

const T0 = new Date('2026-03-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const page = (offset = 0, limit = 20) => ({ offset, limit });
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

export function tagFixture(companyId: number, name: string, overrides: Partial<NewTag> = {}): NewTag {
  return { companyId, name, color: '#336699', kanban: false, laneOrder: 0, createdAt: T0, updatedAt: T0, ...overrides };
}

/** One suite for every adapter of the Tags port, and for the tag filters of Tickets.list. */
export function describeTagsContract(name: string, make: () => Promise<TagsFixture>) {
  describe(`Tags contract: ${name}`, () => {
    let r: TagsFixture;
    let w: { c1: number; c2: number; conn1: number; conn2: number; n: number };
    beforeEach(async () => {
      r = await make();
    });

    /** Two companies with a connection each. Called by each test body (database adapters run bodies in a unit of work). */
    async function given() {
      const plan = await r.plans.add(planFixture('P'));
      const c1 = (await r.companies.add(companyFixture(plan.id, 'One'))).id;
      const c2 = (await r.companies.add(companyFixture(plan.id, 'Two'))).id;
      const conn1 = (await r.connections.add(connectionFixture(c1, 'Main'))).id;
      const conn2 = (await r.connections.add(connectionFixture(c2, 'Other'))).id;
      w = { c1, c2, conn1, conn2, n: 0 };
    }
    const contact = (companyId = w.c1) => r.contacts.getOrCreate(contactDraft(companyId, `55119000${String(++w.n).padStart(5, '0')}`));
    async function ticket(overrides: Partial<Ticket> = {}, companyId = w.c1): Promise<Ticket> {
      const c = await contact(companyId);
      const { ticket: t } = await r.tickets.getOrCreateActive(
        ticketDraft({
          companyId,
          contactId: c.id,
          connectionId: companyId === w.c1 ? w.conn1 : w.conn2,
          uuid: uuid(++w.n),
        }),
      );
      const saved = { ...t, ...overrides };
      await r.tickets.update(saved);
      return saved;
    }
    const ids = (tags: Array<{ id: number }> | undefined) => (tags ?? []).map((t) => t.id);

    describe('tags', () => {
      it('stores every field and finds by id, ids and name (any case) within the company only', async () => {
        await given();
        const draft = tagFixture(w.c1, 'Urgente', { color: '#ff0000', kanban: true, laneOrder: 3, updatedAt: at(1) });
        const added = await r.tags.add(draft);
        expect(added).to.deep.equal({ ...draft, id: added.id });
        const found = await r.tags.findById(w.c1, added.id);
        expect({ ...found }).to.deep.equal({ ...draft, id: added.id });
        expect(found!.updatedAt.toISOString()).to.equal(at(1).toISOString());
        expect(await r.tags.findById(w.c2, added.id)).to.equal(null);
        expect(await r.tags.findById(w.c1, 999_999)).to.equal(null);
        expect((await r.tags.findByName(w.c1, 'URGENTE'))?.id).to.equal(added.id);
        expect(await r.tags.findByName(w.c2, 'urgente')).to.equal(null);
        const other = await r.tags.add(tagFixture(w.c1, 'Outro'));
        const foreign = await r.tags.add(tagFixture(w.c2, 'Urgente'));
        expect(ids(await r.tags.findByIds(w.c1, [other.id, foreign.id, added.id, 999_999]))).to.deep.equal([added.id, other.id]);
        expect(await r.tags.findByIds(w.c1, [])).to.deep.equal([]);
      });

      it('refuses a second tag of the same name in any case within a company, also on update and under a race', async () => {
        await given();
        const first = await r.tags.add(tagFixture(w.c1, 'Vendas'));
        expect(await code(r.tags.add(tagFixture(w.c1, 'VENDAS')))).to.equal('ERR_TAG_NAME_ALREADY_EXISTS');
        expect(await code(r.tags.add(tagFixture(w.c2, 'vendas')))).to.equal('resolved');
        const second = await r.tags.add(tagFixture(w.c1, 'Suporte'));
        expect(await code(r.tags.update({ ...second, name: 'vendas' }))).to.equal('ERR_TAG_NAME_ALREADY_EXISTS');
        await r.tags.update({ ...first, name: 'VENDAS', color: '#00ff00', kanban: true, laneOrder: 2, updatedAt: at(5) });
        expect(await r.tags.findById(w.c1, first.id)).to.deep.include({ name: 'VENDAS', color: '#00ff00', kanban: true, laneOrder: 2 });
        await r.tags.update({ ...second, companyId: w.c2, name: 'Hijack' });
        expect((await r.tags.findById(w.c1, second.id))?.name).to.equal('Suporte');
        const results = await Promise.all(Array.from({ length: 8 }, () => code(r.tags.add(tagFixture(w.c1, 'Corrida')))));
        expect(results.filter((c) => c === 'resolved')).to.have.length(1);
        expect(results.filter((c) => c === 'ERR_TAG_NAME_ALREADY_EXISTS')).to.have.length(7);
      });

      it('lists all by folded name, only lanes or only plain tags, lanes by lane order, and pages a search', async () => {
        await given();
        const zebra = await r.tags.add(tagFixture(w.c1, 'zebra', { kanban: true, laneOrder: 1 }));
        const agua = await r.tags.add(tagFixture(w.c1, 'Água', { kanban: true, laneOrder: 1 }));
        const beta = await r.tags.add(tagFixture(w.c1, 'Beta', { kanban: true, laneOrder: 0 }));
        const aviso = await r.tags.add(tagFixture(w.c1, 'aviso'));
        await r.tags.add(tagFixture(w.c2, 'Alheia', { kanban: true }));
        expect(ids(await r.tags.listAll(w.c1))).to.deep.equal([agua.id, aviso.id, beta.id, zebra.id]);
        expect(ids(await r.tags.listAll(w.c1, { kanban: true }))).to.deep.equal([agua.id, beta.id, zebra.id]);
        expect(ids(await r.tags.listAll(w.c1, { kanban: false }))).to.deep.equal([aviso.id]);
        expect(ids(await r.tags.lanes(w.c1))).to.deep.equal([beta.id, zebra.id, agua.id]);
        const found = await r.tags.list({ companyId: w.c1, search: 'AGU', page: page() });
        expect(found).to.deep.include({ count: 1 });
        expect(ids(found.rows)).to.deep.equal([agua.id]);
        const second = await r.tags.list({ companyId: w.c1, page: page(1, 2) });
        expect(second.count).to.equal(4);
        expect(ids(second.rows)).to.deep.equal([aviso.id, beta.id]);
        expect((await r.tags.list({ companyId: w.c1, kanban: false, page: page() })).count).to.equal(1);
        expect((await r.tags.list({ companyId: w.c1, search: '50%', page: page() })).count).to.equal(0);
      });
    });

    describe('ticket and contact links', () => {
      it("sets, adds and removes a ticket's tags, reads them for many tickets at once, and counts tickets per tag", async () => {
        await given();
        const [a, b, c] = [
          await r.tags.add(tagFixture(w.c1, 'Charlie')),
          await r.tags.add(tagFixture(w.c1, 'alpha')),
          await r.tags.add(tagFixture(w.c1, 'Bravo')),
        ];
        const foreign = await r.tags.add(tagFixture(w.c2, 'Foreign'));
        const t1 = await ticket();
        const t2 = await ticket();
        const t3 = await ticket();
        await r.tags.setTicketTags(w.c1, t1.id, [a.id, b.id, foreign.id]);
        await r.tags.addTicketTag(w.c1, t2.id, c.id);
        await r.tags.addTicketTag(w.c1, t2.id, c.id);
        await r.tags.addTicketTag(w.c1, t2.id, foreign.id);
        const of = await r.tags.tagsOfTickets(w.c1, [t1.id, t2.id, t3.id]);
        expect(ids(of.get(t1.id))).to.deep.equal([b.id, a.id]);
        expect(of.get(t1.id)![0]).to.deep.include({ name: 'alpha', color: '#336699', kanban: false, companyId: w.c1 });
        expect(ids(of.get(t2.id))).to.deep.equal([c.id]);
        expect(of.has(t3.id)).to.equal(false);
        expect((await r.tags.tagsOfTickets(w.c2, [t1.id])).size).to.equal(0);
        expect((await r.tags.tagsOfTickets(w.c1, [])).size).to.equal(0);
        expect(Object.fromEntries(await r.tags.countTickets(w.c1, [a.id, b.id, c.id]))).to.deep.equal({ [a.id]: 1, [b.id]: 1, [c.id]: 1 });
        await r.tags.setTicketTags(w.c1, t1.id, [c.id, b.id]);
        expect(ids((await r.tags.tagsOfTickets(w.c1, [t1.id])).get(t1.id))).to.deep.equal([b.id, c.id]);
        expect(Object.fromEntries(await r.tags.countTickets(w.c1, [a.id, b.id, c.id, foreign.id]))).to.deep.equal({ [b.id]: 1, [c.id]: 2 });
        await r.tags.removeTicketTags(w.c1, t1.id, [c.id]);
        expect(ids((await r.tags.tagsOfTickets(w.c1, [t1.id])).get(t1.id))).to.deep.equal([b.id]);
        await r.tags.removeTicketTags(w.c2, t2.id);
        expect(ids((await r.tags.tagsOfTickets(w.c1, [t2.id])).get(t2.id))).to.deep.equal([c.id]);
        await r.tags.removeTicketTags(w.c1, t2.id);
        await r.tags.setTicketTags(w.c1, t1.id, []);
        expect((await r.tags.tagsOfTickets(w.c1, [t1.id, t2.id])).size).to.equal(0);
      });

      it('does the same for contacts', async () => {
        await given();
        const [a, b] = [await r.tags.add(tagFixture(w.c1, 'VIP')), await r.tags.add(tagFixture(w.c1, 'Atacado'))];
        const foreign = await r.tags.add(tagFixture(w.c2, 'Foreign'));
        const ana = await contact();
        const bia = await contact();
        await r.tags.setContactTags(w.c1, ana.id, [a.id, b.id, foreign.id]);
        await r.tags.addContactTag(w.c1, bia.id, a.id);
        await r.tags.addContactTag(w.c1, bia.id, a.id);
        const of = await r.tags.tagsOfContacts(w.c1, [ana.id, bia.id]);
        expect(ids(of.get(ana.id))).to.deep.equal([b.id, a.id]);
        expect(ids(of.get(bia.id))).to.deep.equal([a.id]);
        await r.tags.setContactTags(w.c1, ana.id, [a.id]);
        await r.tags.removeContactTags(w.c1, bia.id, [a.id]);
        const after = await r.tags.tagsOfContacts(w.c1, [ana.id, bia.id]);
        expect(ids(after.get(ana.id))).to.deep.equal([a.id]);
        expect(after.has(bia.id)).to.equal(false);
        await r.tags.removeContactTags(w.c1, ana.id);
        expect((await r.tags.tagsOfContacts(w.c1, [ana.id])).size).to.equal(0);
        expect(await r.tags.countTickets(w.c1, [a.id])).to.deep.equal(new Map());
      });

      it('a deleted tag leaves every ticket and contact; a deleted ticket leaves its tags', async () => {
        await given();
        const [a, b] = [await r.tags.add(tagFixture(w.c1, 'A')), await r.tags.add(tagFixture(w.c1, 'B'))];
        const t1 = await ticket();
        const t2 = await ticket();
        const ana = await contact();
        await r.tags.setTicketTags(w.c1, t1.id, [a.id, b.id]);
        await r.tags.setTicketTags(w.c1, t2.id, [a.id]);
        await r.tags.setContactTags(w.c1, ana.id, [a.id, b.id]);
        await r.tags.remove(w.c2, a.id);
        expect(await r.tags.findById(w.c1, a.id)).to.not.equal(null);
        await r.tags.remove(w.c1, a.id);
        expect(await r.tags.findById(w.c1, a.id)).to.equal(null);
        expect(ids((await r.tags.tagsOfTickets(w.c1, [t1.id])).get(t1.id))).to.deep.equal([b.id]);
        expect((await r.tags.tagsOfTickets(w.c1, [t2.id])).size).to.equal(0);
        expect(ids((await r.tags.tagsOfContacts(w.c1, [ana.id])).get(ana.id))).to.deep.equal([b.id]);
        await r.tickets.remove(w.c1, t1.id);
        expect(await r.tags.countTickets(w.c1, [b.id])).to.deep.equal(new Map());
      });

      it("locked read-then-write changes of one ticket's tags happen one after the other", async () => {
        await given();
        const lanes = [
          await r.tags.add(tagFixture(w.c1, 'L1', { kanban: true })),
          await r.tags.add(tagFixture(w.c1, 'L2', { kanban: true })),
          await r.tags.add(tagFixture(w.c1, 'L3', { kanban: true })),
        ];
        const t = await ticket();
        // Each move reads the ticket's lanes, removes the others and adds its own: without the lock two could both stay.
        await Promise.all(
          lanes.map((lane) =>
            r.tx.run(async () => {
              await r.tags.lockTicketTags(w.c1, t.id);
              const current = (await r.tags.tagsOfTickets(w.c1, [t.id])).get(t.id) ?? [];
              const others = current.filter((x) => x.id !== lane.id).map((x) => x.id);
              if (others.length) await r.tags.removeTicketTags(w.c1, t.id, others);
              await new Promise((done) => setTimeout(done, 5));
              await r.tags.addTicketTag(w.c1, t.id, lane.id);
            }),
          ),
        );
        expect((await r.tags.tagsOfTickets(w.c1, [t.id])).get(t.id)).to.have.length(1);
      });
    });

    describe('ticket list filters', () => {
      it('filters tickets by any of some tags, by one tag, by none of some tags, and by several statuses', async () => {
        await given();
        const [a, b, lane] = [
          await r.tags.add(tagFixture(w.c1, 'A')),
          await r.tags.add(tagFixture(w.c1, 'B')),
          await r.tags.add(tagFixture(w.c1, 'Lane', { kanban: true })),
        ];
        const t1 = await ticket({ status: 'open', updatedAt: at(3) });
        const t2 = await ticket({ status: 'pending', updatedAt: at(2) });
        const t3 = await ticket({ status: 'closed', closedAt: at(1), updatedAt: at(1) });
        const foreign = await ticket({}, w.c2);
        await r.tags.setTicketTags(w.c1, t1.id, [a.id, lane.id]);
        await r.tags.setTicketTags(w.c1, t2.id, [b.id]);
        const list = async (f: Omit<Parameters<Tickets['list']>[0], 'companyId' | 'page'>) =>
          (await r.tickets.list({ companyId: w.c1, page: page(), ...f })).rows.map((t) => t.id);
        expect(await list({ tagIds: [a.id, b.id] })).to.deep.equal([t1.id, t2.id]);
        expect(await list({ tagIds: [b.id], status: 'pending' })).to.deep.equal([t2.id]);
        expect(await list({ tagIds: [] })).to.deep.equal([]);
        expect(await list({ hasTagId: lane.id })).to.deep.equal([t1.id]);
        expect(await list({ lacksTagIds: [lane.id] })).to.deep.equal([t2.id, t3.id]);
        expect(await list({ lacksTagIds: [lane.id], statuses: ['open', 'pending'] })).to.deep.equal([t2.id]);
        expect(await list({ statuses: ['open', 'closed'] })).to.deep.equal([t1.id, t3.id]);
        expect(await list({ tagIds: [a.id], hasTagId: lane.id, lacksTagIds: [b.id] })).to.deep.equal([t1.id]);
        expect(await r.tickets.count({ companyId: w.c1, tagIds: [a.id, b.id] })).to.equal(2);
        expect(await r.tickets.count({ companyId: w.c2, tagIds: [a.id] })).to.equal(0);
        expect((await r.tickets.list({ companyId: w.c2, page: page(), lacksTagIds: [a.id] })).rows.map((t) => t.id)).to.deep.equal([foreign.id]);
      });
    });
  });
}
