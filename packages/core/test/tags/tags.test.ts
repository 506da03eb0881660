import { expect } from 'chai';
import type { Actor, TagSummary } from '../../src/index.js';
import { code, eventsOf, ticketWorld, type TicketWorld } from '../messaging/ticket-world.js';

const tagIds = (tags: readonly TagSummary[]) => tags.map((t) => t.id);

/** The ticket world with three tags of Acme (two kanban lanes) and one of Other. */
async function tagWorld() {
  const w = await ticketWorld();
  const create = (actor: Actor, name: string, extra: { kanban?: boolean; laneOrder?: number; color?: string } = {}) =>
    w.app.tags.createTag.execute({ actor, name, ...extra });
  const vip = await create(w.admin, 'VIP', { color: '#FF0000' });
  const doing = await create(w.admin, 'Doing', { kanban: true, laneOrder: 5 });
  const todo = await create(w.admin, 'To do', { kanban: true, laneOrder: 1 });
  const theirs = await create(w.otherAdmin, 'Theirs');
  w.ports.realtime.events.length = 0;
  return { ...w, create, vip, doing, todo, theirs };
}

const lastEvent = (w: TicketWorld) => w.ports.realtime.events.at(-1)!;

describe('Tags and kanban (in-memory use cases)', () => {
  describe('managing tags', () => {
    it('admins create, update and delete tags, announced on the tag namespace; operators only read them', async () => {
      const w = await tagWorld();
      expect(w.vip).to.include({ name: 'VIP', color: '#ff0000', kanban: false, laneOrder: 0, companyId: w.acme.id });
      expect(w.vip.createdAt).to.be.a('string');
      const lane = await w.create(w.admin, 'Done', { kanban: true });
      expect(lane).to.include({ kanban: true, laneOrder: 6 });
      expect((await w.create(w.admin, 'Plain')).color).to.equal('#808080');
      expect(lastEvent(w)).to.deep.include({ companyId: w.acme.id, entity: 'tag' });
      const updated = await w.app.tags.updateTag.execute({ actor: w.admin, tagId: w.vip.id, name: ' V.I.P. ', color: '#00aa00', kanban: true });
      expect(updated).to.include({ name: 'V.I.P.', color: '#00aa00', kanban: true, laneOrder: 7 });
      expect((await w.app.tags.updateTag.execute({ actor: w.admin, tagId: w.vip.id, laneOrder: 0 })).laneOrder).to.equal(0);
      await w.app.tags.deleteTag.execute({ actor: w.admin, tagId: lane.id });
      expect(lastEvent(w).data).to.deep.equal({ action: 'delete', tagId: lane.id });
      expect(eventsOf(w)).to.deep.equal(['tag:create', 'tag:create', 'tag:update', 'tag:update', 'tag:delete']);
      for (const attempt of [
        w.create(w.ana, 'Mine'),
        w.app.tags.updateTag.execute({ actor: w.ana, tagId: w.vip.id, name: 'x' }),
        w.app.tags.deleteTag.execute({ actor: w.carla, tagId: w.vip.id }),
      ])
        expect(await code(attempt)).to.equal('ERR_NO_PERMISSION');
      expect((await w.app.tags.showTag.execute({ actor: w.ana, tagId: w.vip.id })).name).to.equal('V.I.P.');
    });

    it('refuses bad names, colors and lane orders, and a name in use in any case (409)', async () => {
      const w = await tagWorld();
      expect(await code(w.create(w.admin, '  '))).to.equal('ERR_INVALID_TAG_NAME');
      expect(await code(w.create(w.admin, 'x'.repeat(61)))).to.equal('ERR_INVALID_TAG_NAME');
      expect(await code(w.create(w.admin, 'Red', { color: 'red' }))).to.equal('ERR_INVALID_TAG_COLOR');
      expect(await code(w.create(w.admin, 'Red', { color: '#ff00000' }))).to.equal('ERR_INVALID_TAG_COLOR');
      expect(await code(w.create(w.admin, 'Lane', { kanban: true, laneOrder: -1 }))).to.equal('ERR_INVALID_LANE_ORDER');
      expect(await code(w.create(w.admin, 'vip'))).to.equal('ERR_TAG_NAME_ALREADY_EXISTS');
      expect(await code(w.app.tags.updateTag.execute({ actor: w.admin, tagId: w.todo.id, name: 'DOING' }))).to.equal('ERR_TAG_NAME_ALREADY_EXISTS');
      expect(await code(w.app.tags.updateTag.execute({ actor: w.admin, tagId: w.vip.id, name: 'vip' }))).to.equal('resolved');
      expect(await code(w.create(w.otherAdmin, 'VIP'))).to.equal('resolved');
    });

    it("keeps tenants apart: another company's tag is 404 everywhere and never listed", async () => {
      const w = await tagWorld();
      for (const attempt of [
        w.app.tags.showTag.execute({ actor: w.admin, tagId: w.theirs.id }),
        w.app.tags.updateTag.execute({ actor: w.admin, tagId: w.theirs.id, name: 'Mine' }),
        w.app.tags.deleteTag.execute({ actor: w.admin, tagId: w.theirs.id }),
      ])
        expect(await code(attempt)).to.equal('ERR_NO_TAG_FOUND');
      expect((await w.app.tags.listAllTags.execute({ actor: w.admin })).map((t) => t.name)).to.deep.equal(['Doing', 'To do', 'VIP']);
      expect((await w.app.tags.listAllTags.execute({ actor: w.otherAdmin })).map((t) => t.name)).to.deep.equal(['Theirs']);
    });

    it('lists all tags (or only lanes), the lanes in lane order, and pages a search with ticket counts', async () => {
      const w = await tagWorld();
      expect((await w.app.tags.listAllTags.execute({ actor: w.ana, kanban: true })).map((t) => t.name)).to.deep.equal(['Doing', 'To do']);
      expect((await w.app.tags.listAllTags.execute({ actor: w.ana, kanban: false })).map((t) => t.name)).to.deep.equal(['VIP']);
      expect((await w.app.tags.listKanbanLanes.execute({ actor: w.ana })).lista.map((t) => t.name)).to.deep.equal(['To do', 'Doing']);
      const t1 = await w.ticket();
      const t2 = await w.ticket();
      await w.app.tags.syncTags.execute({ actor: w.admin, ticketId: t1.id, tagIds: [w.vip.id, w.todo.id] });
      await w.app.tags.syncTags.execute({ actor: w.admin, ticketId: t2.id, tagIds: [w.vip.id] });
      const page = await w.app.tags.listTags.execute({ actor: w.ana });
      expect(page).to.deep.include({ count: 3, hasMore: false });
      expect(page.tags.map((t) => [t.name, t.ticketCount])).to.deep.equal([
        ['Doing', 0],
        ['To do', 1],
        ['VIP', 2],
      ]);
      expect((await w.app.tags.listTags.execute({ actor: w.ana, searchParam: 'do' })).tags.map((t) => t.name)).to.deep.equal(['Doing', 'To do']);
      expect((await w.app.tags.listTags.execute({ actor: w.ana, kanban: false })).tags.map((t) => t.name)).to.deep.equal(['VIP']);
      expect(await w.app.tags.listTags.execute({ actor: w.ana, pageNumber: 2 })).to.deep.equal({ tags: [], count: 3, hasMore: false });
    });
  });

  describe('tagging tickets and contacts', () => {
    it("syncs a ticket's tags (replacing them) for whoever sees the ticket, announcing the ticket with its tags", async () => {
      const w = await tagWorld();
      const pending = await w.ticket();
      const bias = await w.ticket({ status: 'open', userId: w.bia.userId });
      const synced = await w.app.tags.syncTags.execute({ actor: w.ana, ticketId: pending.id, tagIds: [w.vip.id, w.todo.id, w.vip.id] });
      expect(synced).to.deep.equal({
        ticketId: pending.id,
        tags: [
          { id: w.todo.id, name: 'To do', color: '#808080', kanban: true },
          { id: w.vip.id, name: 'VIP', color: '#ff0000', kanban: false },
        ],
      });
      const event = lastEvent(w);
      expect(event.entity).to.equal('ticket');
      expect((event.data as any).action).to.equal('update');
      expect(tagIds((event.data as any).ticket.tags)).to.deep.equal([w.todo.id, w.vip.id]);
      expect(tagIds((await w.app.tags.syncTags.execute({ actor: w.ana, ticketId: pending.id, tagIds: [w.doing.id] })).tags)).to.deep.equal([w.doing.id]);
      expect((await w.app.tags.syncTags.execute({ actor: w.ana, ticketId: pending.id, tagIds: [] })).tags).to.deep.equal([]);
      expect(await code(w.app.tags.syncTags.execute({ actor: w.ana, ticketId: bias.id, tagIds: [w.vip.id] }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tags.syncTags.execute({ actor: w.carla, ticketId: bias.id, tagIds: [w.vip.id] }))).to.equal('resolved');
      expect(await code(w.app.tags.syncTags.execute({ actor: w.otherAdmin, ticketId: bias.id, tagIds: [w.theirs.id] }))).to.equal('ERR_NO_TICKET_FOUND');
      expect(await code(w.app.tags.syncTags.execute({ actor: w.admin, ticketId: bias.id, tagIds: [w.theirs.id] }))).to.equal('ERR_NO_TAG_FOUND');
      expect(await code(w.app.tags.syncTags.execute({ actor: w.admin, ticketId: bias.id, tagIds: [999] }))).to.equal('ERR_NO_TAG_FOUND');
      expect(await code(w.app.tags.syncTags.execute({ actor: w.admin, tagIds: [] }))).to.equal('ERR_TAG_SYNC_NEEDS_ONE_TARGET');
      expect(await code(w.app.tags.syncTags.execute({ actor: w.admin, ticketId: bias.id, contactId: bias.contactId, tagIds: [] }))).to.equal(
        'ERR_TAG_SYNC_NEEDS_ONE_TARGET',
      );
      expect(await code(w.app.tags.syncTags.execute({ actor: w.admin, ticketId: bias.id, tagIds: Array.from({ length: 101 }, (_, i) => i + 1) }))).to.equal(
        'ERR_TOO_MANY_TAGS',
      );
      expect(tagIds((await w.app.tickets.showTicket.execute({ actor: w.admin, ticketId: bias.id })).tags)).to.deep.equal([w.vip.id]);
    });

    it("syncs a contact's tags and takes one off, announced on the tag namespace; other companies' contacts are 404", async () => {
      const w = await tagWorld();
      const c = await w.contact();
      const theirs = await w.contact(w.other.id);
      expect(await w.app.tags.syncTags.execute({ actor: w.ana, contactId: c.id, tagIds: [w.vip.id, w.doing.id] })).to.deep.include({ contactId: c.id });
      expect(lastEvent(w)).to.deep.include({ entity: 'tag' });
      expect(lastEvent(w).data).to.deep.include({ action: 'contact', contactId: c.id });
      const left = await w.app.tags.untagContact.execute({ actor: w.bia, tagId: w.vip.id, contactId: c.id });
      expect(left).to.deep.equal({ contactId: c.id, tags: [{ id: w.doing.id, name: 'Doing', color: '#808080', kanban: true }] });
      expect(eventsOf(w)).to.deep.equal(['tag:contact', 'tag:contact']);
      expect(await code(w.app.tags.syncTags.execute({ actor: w.admin, contactId: theirs.id, tagIds: [] }))).to.equal('ERR_NO_CONTACT_FOUND');
      expect(await code(w.app.tags.untagContact.execute({ actor: w.admin, tagId: w.vip.id, contactId: theirs.id }))).to.equal('ERR_NO_CONTACT_FOUND');
      expect(await code(w.app.tags.untagContact.execute({ actor: w.admin, tagId: w.theirs.id, contactId: c.id }))).to.equal('ERR_NO_TAG_FOUND');
      expect(await code(w.app.tags.syncTags.execute({ actor: w.admin, contactId: c.id, tagIds: [w.theirs.id] }))).to.equal('ERR_NO_TAG_FOUND');
    });

    it("a lane's tag moves a ticket between lanes (its other lanes go, its plain tags stay); untagging clears all or only the lanes", async () => {
      const w = await tagWorld();
      const t = await w.ticket({ status: 'open', userId: w.ana.userId });
      expect(tagIds((await w.app.tags.tagTicket.execute({ actor: w.ana, ticketId: t.id, tagId: w.vip.id })).tags)).to.deep.equal([w.vip.id]);
      expect(tagIds((await w.app.tags.tagTicket.execute({ actor: w.ana, ticketId: t.id, tagId: w.todo.id })).tags)).to.deep.equal([w.todo.id, w.vip.id]);
      const moved = await w.app.tags.tagTicket.execute({ actor: w.ana, ticketId: t.id, tagId: w.doing.id });
      expect(tagIds(moved.tags)).to.deep.equal([w.doing.id, w.vip.id]);
      expect(tagIds((await w.app.tags.tagTicket.execute({ actor: w.ana, ticketId: t.id, tagId: w.doing.id })).tags)).to.deep.equal([w.doing.id, w.vip.id]);
      expect(eventsOf(w)).to.deep.equal(['ticket:update', 'ticket:update', 'ticket:update', 'ticket:update']);
      expect(tagIds((lastEvent(w).data as any).ticket.tags)).to.deep.equal([w.doing.id, w.vip.id]);
      expect(tagIds((await w.app.tags.untagTicket.execute({ actor: w.ana, ticketId: t.id, lanesOnly: true })).tags)).to.deep.equal([w.vip.id]);
      expect((await w.app.tags.untagTicket.execute({ actor: w.ana, ticketId: t.id })).tags).to.deep.equal([]);
      expect(await code(w.app.tags.tagTicket.execute({ actor: w.bia, ticketId: t.id, tagId: w.vip.id }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tags.untagTicket.execute({ actor: w.bia, ticketId: t.id }))).to.equal('ERR_NO_PERMISSION');
      expect(await code(w.app.tags.tagTicket.execute({ actor: w.ana, ticketId: t.id, tagId: w.theirs.id }))).to.equal('ERR_NO_TAG_FOUND');
      expect(await code(w.app.tags.tagTicket.execute({ actor: w.otherAdmin, ticketId: t.id, tagId: w.theirs.id }))).to.equal('ERR_NO_TICKET_FOUND');
      expect(await code(w.app.tags.untagTicket.execute({ actor: w.otherAdmin, ticketId: t.id }))).to.equal('ERR_NO_TICKET_FOUND');
    });

    it('a deleted tag leaves its tickets, which keep their other tags', async () => {
      const w = await tagWorld();
      const t = await w.ticket();
      await w.app.tags.syncTags.execute({ actor: w.admin, ticketId: t.id, tagIds: [w.vip.id, w.todo.id] });
      await w.app.tags.deleteTag.execute({ actor: w.admin, tagId: w.todo.id });
      expect(tagIds((await w.app.tickets.showTicket.execute({ actor: w.admin, ticketId: t.id })).tags)).to.deep.equal([w.vip.id]);
    });
  });

  describe('the ticket list and the kanban', () => {
    it("filters the ticket list by tags (any of them) and shows every ticket's tags", async () => {
      const w = await tagWorld();
      const t1 = await w.ticket();
      const t2 = await w.ticket();
      await w.ticket();
      await w.app.tags.syncTags.execute({ actor: w.admin, ticketId: t1.id, tagIds: [w.vip.id] });
      await w.app.tags.syncTags.execute({ actor: w.admin, ticketId: t2.id, tagIds: [w.todo.id, w.doing.id] });
      const list = async (ids: number[]) =>
        (await w.app.tickets.listTickets.execute({ actor: w.admin, showAll: true, tagIds: ids })).tickets.map((t) => t.id).sort();
      expect(await list([w.vip.id, w.doing.id])).to.deep.equal([t1.id, t2.id]);
      expect(await list([w.todo.id])).to.deep.equal([t2.id]);
      expect(await list([w.theirs.id])).to.deep.equal([]);
      expect((await list([])).length).to.equal(3);
      expect(await w.app.tickets.countTickets.execute({ actor: w.admin, showAll: true, tagIds: [w.vip.id] })).to.deep.equal({ count: 1 });
      const shown = (await w.app.tickets.listTickets.execute({ actor: w.admin, showAll: true })).tickets;
      expect(shown.map((t) => tagIds(t.tags))).to.deep.include.members([[w.vip.id], [w.doing.id, w.todo.id], []]);
    });

    it('groups the open and pending tickets the caller may see by lane, after the lane of tickets in none', async () => {
      const w = await tagWorld();
      const pending = await w.ticket();
      const anas = await w.ticket({ status: 'open', userId: w.ana.userId });
      const bias = await w.ticket({ status: 'open', userId: w.bia.userId });
      const closed = await w.ticket({ status: 'closed', closedAt: w.ports.clock.now() });
      const plain = await w.ticket();
      await w.ticket({}, w.otherConnection);
      await w.app.tags.tagTicket.execute({ actor: w.admin, ticketId: anas.id, tagId: w.doing.id });
      await w.app.tags.tagTicket.execute({ actor: w.admin, ticketId: bias.id, tagId: w.todo.id });
      await w.app.tags.tagTicket.execute({ actor: w.admin, ticketId: closed.id, tagId: w.todo.id });
      await w.app.tags.tagTicket.execute({ actor: w.admin, ticketId: plain.id, tagId: w.vip.id });
      const board = async (actor: Actor, extra: Record<string, unknown> = {}) =>
        (await w.app.tags.ticketKanban.execute({ actor, ...extra })).lanes.map((l) => [l.tag?.name ?? null, l.tickets.map((t) => t.id).sort(), l.count]);
      expect(await board(w.admin, { showAll: true })).to.deep.equal([
        [null, [pending.id, plain.id].sort(), 2],
        ['To do', [bias.id], 1],
        ['Doing', [anas.id], 1],
      ]);
      expect(await board(w.ana)).to.deep.equal([
        [null, [pending.id, plain.id].sort(), 2],
        ['To do', [], 0],
        ['Doing', [anas.id], 1],
      ]);
      expect(await board(w.ana, { showAll: true })).to.deep.equal(await board(w.ana));
      expect(await board(w.carla, { showAll: true, status: 'open' })).to.deep.equal([
        [null, [], 0],
        ['To do', [bias.id], 1],
        ['Doing', [anas.id], 1],
      ]);
      expect(await board(w.admin, { showAll: true, tagIds: [w.vip.id] })).to.deep.equal([
        [null, [plain.id], 1],
        ['To do', [], 0],
        ['Doing', [], 0],
      ]);
      const lanes = (await w.app.tags.ticketKanban.execute({ actor: w.admin, showAll: true })).lanes;
      expect(lanes[1]!.tag).to.include({ id: w.todo.id, kanban: true, laneOrder: 1 });
      expect(lanes[1]).to.include({ hasMore: false });
      expect(tagIds(lanes[2]!.tickets[0]!.tags)).to.deep.equal([w.doing.id]);
      expect(await board(w.otherAdmin, { showAll: true })).to.have.length(1);
      expect(await code(w.app.tags.ticketKanban.execute({ actor: w.admin, status: 'closed' as 'open' }))).to.equal('ERR_KANBAN_STATUS');
    });

    it('shows a ticket carrying two lanes (set by a sync) in both', async () => {
      const w = await tagWorld();
      const t = await w.ticket();
      await w.app.tags.syncTags.execute({ actor: w.admin, ticketId: t.id, tagIds: [w.todo.id, w.doing.id] });
      const lanes = (await w.app.tags.ticketKanban.execute({ actor: w.admin })).lanes;
      expect(lanes.map((l) => l.tickets.map((x) => x.id))).to.deep.equal([[], [t.id], [t.id]]);
    });
  });
});
