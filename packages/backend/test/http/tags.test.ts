import { expect } from 'chai';
import WebSocket from 'ws';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { asSuper, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

interface Frame {
  seq: number;
  event: string;
  data: { action: string } & Record<string, any>;
}

function listen(url: string): Promise<{ ws: WebSocket; frames: Frame[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const frames: Frame[] = [];
    ws.on('message', (raw) => frames.push(JSON.parse(String(raw)) as Frame));
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('error', reject);
  });
}

const idsOf = (rows: Array<{ id: number }>) => rows.map((r) => r.id);

describe('HTTP: tags and kanban, end to end with the sandbox', () => {
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('admins manage tags; operators read them; bad input is a 4xx with an error', async () => {
    const d = await sandboxDesk(b);
    const vip = await d.admin.post('/tags', { name: 'VIP', color: '#FFAA00' });
    expect(vip.status, JSON.stringify(vip.body)).to.equal(201);
    expect(vip.body).to.include({ name: 'VIP', color: '#ffaa00', kanban: false, laneOrder: 0 });
    const todo = (await d.admin.post('/tags', { name: 'To do', color: '#111111', kanban: 1 })).body;
    const done = (await d.admin.post('/tags', { name: 'Done', color: '#222222', kanban: true, laneOrder: 9 })).body;
    expect(todo).to.include({ kanban: true, laneOrder: 0 });
    expect((await d.admin.post('/tags', { name: 'vip', color: '#000000' })).body).to.deep.equal({ error: 'ERR_TAG_NAME_ALREADY_EXISTS' });
    expect((await d.admin.post('/tags', { name: 'vip', color: '#000000' })).status).to.equal(409);
    expect((await d.admin.post('/tags', { name: 'Red', color: 'red' })).body).to.deep.equal({ error: 'ERR_INVALID_TAG_COLOR' });
    expect((await d.admin.post('/tags', { name: '', color: '#000000' })).status).to.equal(422);
    expect((await d.admin.post('/tags', { color: '#000000' })).body.error).to.equal('ERR_VALIDATION');
    expect((await d.admin.post('/tags', { name: 'Lane', kanban: 'yes' })).status).to.equal(422);
    expect((await d.ana.api.post('/tags', { name: 'Mine', color: '#000000' })).body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    expect((await d.ana.api.put(`/tags/${vip.body.id}`, { name: 'Mine' })).status).to.equal(403);
    expect((await d.ana.api.delete(`/tags/${vip.body.id}`)).status).to.equal(403);
    expect((await d.ana.api.get('/tags/list')).body.map((t: { name: string }) => t.name)).to.deep.equal(['Done', 'To do', 'VIP']);
    expect((await d.ana.api.get('/tags/list?kanban=1')).body.map((t: { name: string }) => t.name)).to.deep.equal(['Done', 'To do']);
    expect((await d.ana.api.get('/tag/kanban')).body.lista.map((t: { name: string }) => t.name)).to.deep.equal(['To do', 'Done']);
    expect((await d.ana.api.get(`/tags/${vip.body.id}`)).body.name).to.equal('VIP');
    expect((await d.ana.api.get('/tags/999999')).body).to.deep.equal({ error: 'ERR_NO_TAG_FOUND' });
    expect((await d.ana.api.get('/tags/abc')).status).to.equal(422);
    const updated = await d.admin.put(`/tags/${done.id}`, { name: 'Finished', laneOrder: 0, kanban: 0 });
    expect(updated.body).to.include({ name: 'Finished', laneOrder: 0, kanban: false });
    expect((await d.admin.delete(`/tags/${todo.id}`)).body).to.deep.equal({ message: 'Tag deleted' });
    expect((await d.admin.get(`/tags/${todo.id}`)).status).to.equal(404);
    const page = await d.ana.api.get('/tags?searchParam=fin');
    expect(page.body).to.deep.equal({ tags: [{ ...updated.body, ticketCount: 0 }], count: 1, hasMore: false });
  });

  it('tags tickets: sync, lane moves seen on the namespace, the tags filter of GET /tickets, ticket views with tags', async () => {
    const d = await sandboxDesk(b);
    const { token } = await asSuper(b);
    const t1 = await d.inbound('5511977771001', 'Oi');
    const t2 = await d.inbound('5511977771002', 'Olá');
    expect(t1.tags).to.deep.equal([]);
    const vip = (await d.admin.post('/tags', { name: 'VIP', color: '#ffaa00' })).body;
    const todo = (await d.admin.post('/tags', { name: 'To do', color: '#111111', kanban: true })).body;
    const doing = (await d.admin.post('/tags', { name: 'Doing', color: '#222222', kanban: true })).body;
    const synced = await d.ana.api.post('/tags/sync', { ticketId: t1.id, tags: [{ id: vip.id, name: 'VIP' }, { id: todo.id }] });
    expect(synced.status, JSON.stringify(synced.body)).to.equal(200);
    expect(idsOf(synced.body.tags)).to.deep.equal([todo.id, vip.id]);
    expect((await d.ana.api.post('/tags/sync', { ticketId: t2.id, tagIds: [vip.id] })).status).to.equal(200);
    expect((await d.ana.api.post('/tags/sync', { ticketId: t2.id })).status).to.equal(422);
    expect((await d.ana.api.post('/tags/sync', { tagIds: [] })).body).to.deep.equal({ error: 'ERR_TAG_SYNC_NEEDS_ONE_TARGET' });
    expect((await d.ana.api.post('/tags/sync', { ticketId: t2.id, tagIds: [999999] })).body).to.deep.equal({ error: 'ERR_NO_TAG_FOUND' });

    const ids = async (query: string) => idsOf((await d.admin.get(`/tickets?showAll=true&${query}`)).body.tickets).sort();
    expect(await ids(`tags=[${vip.id}]`)).to.deep.equal([t1.id, t2.id].sort());
    expect(await ids(`tags=[${todo.id}]`)).to.deep.equal([t1.id]);
    expect(await ids(`tags=${todo.id},${doing.id}`)).to.deep.equal([t1.id]);
    expect(await ids(`tags=[${doing.id}]`)).to.deep.equal([]);
    expect(await ids('tags=[]')).to.deep.equal([t1.id, t2.id].sort());
    expect((await d.admin.get('/tickets?tags=[abc]')).status).to.equal(422);
    expect((await d.admin.get(`/tickets/count?showAll=true&tags=[${todo.id}]`)).body).to.deep.equal({ count: 1 });
    const shown = await d.admin.get(`/tickets/${t1.id}`);
    expect(shown.body.tags).to.deep.equal([
      { id: todo.id, name: 'To do', color: '#111111', kanban: true },
      { id: vip.id, name: 'VIP', color: '#ffaa00', kanban: false },
    ]);
    expect((await d.ana.api.get('/tags')).body.tags.map((t: { name: string; ticketCount: number }) => [t.name, t.ticketCount])).to.deep.equal([
      ['Doing', 0],
      ['To do', 1],
      ['VIP', 2],
    ]);

    const ns = await listen(`${b.url.replace('http', 'ws')}/${t1.companyId}?token=${token}`);
    const moved = await d.ana.api.put(`/ticket-tags/${t1.id}/${doing.id}`);
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(idsOf(moved.body.tags)).to.deep.equal([doing.id, vip.id]);
    const frame = await eventually('the lane move on the namespace', async () => ns.frames.find((f) => f.event === `company-${t1.companyId}-ticket`));
    expect(frame.data.action).to.equal('update');
    expect(frame.data.ticket).to.include({ id: t1.id });
    expect(idsOf(frame.data.ticket.tags)).to.deep.equal([doing.id, vip.id]);
    await d.admin.put(`/tags/${vip.id}`, { color: '#000000' });
    const tagFrame = await eventually('the tag update on the namespace', async () => ns.frames.find((f) => f.event === `company-${t1.companyId}-tag`));
    expect(tagFrame.data).to.deep.include({ action: 'update' });
    expect(tagFrame.data.tag).to.include({ id: vip.id, color: '#000000' });
    ns.ws.close();

    expect(idsOf((await d.ana.api.delete(`/ticket-tags/${t1.id}?lanesOnly=1`)).body.tags)).to.deep.equal([vip.id]);
    expect((await d.ana.api.delete(`/ticket-tags/${t1.id}`)).body.tags).to.deep.equal([]);
    expect((await d.ana.api.put(`/ticket-tags/${t1.id}/999999`)).status).to.equal(404);
    // Bia cannot see Ana's ticket once Ana takes it: no tagging either.
    expect((await d.ana.api.put(`/tickets/${t2.id}`, { status: 'open' })).status).to.equal(200);
    expect((await d.bia.api.put(`/ticket-tags/${t2.id}/${vip.id}`)).body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    expect((await d.bia.api.delete(`/ticket-tags/${t2.id}`)).status).to.equal(403);
    expect((await d.bia.api.post('/tags/sync', { ticketId: t2.id, tagIds: [] })).status).to.equal(403);
  });

  it('groups the visible open and pending tickets by lane on GET /ticket/kanban', async () => {
    const d = await sandboxDesk(b);
    const t1 = await d.inbound('5511977772001', 'Um');
    const t2 = await d.inbound('5511977772002', 'Dois');
    const t3 = await d.inbound('5511977772003', 'Três');
    const todo = (await d.admin.post('/tags', { name: 'To do', color: '#111111', kanban: true, laneOrder: 2 })).body;
    const doing = (await d.admin.post('/tags', { name: 'Doing', color: '#222222', kanban: true, laneOrder: 1 })).body;
    await d.admin.put(`/ticket-tags/${t1.id}/${todo.id}`);
    await d.admin.put(`/ticket-tags/${t2.id}/${doing.id}`);
    expect((await d.bia.api.put(`/tickets/${t2.id}`, { status: 'open' })).status).to.equal(200);
    await d.admin.put(`/tickets/${t3.id}`, { status: 'closed', sendFarewellMessage: false });
    const board = async (api: typeof d.admin, query = '') => {
      const res = await api.get(`/ticket/kanban${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.lanes.map((l: { tag: { name: string } | null; tickets: Array<{ id: number }>; count: number }) => [
        l.tag?.name ?? null,
        idsOf(l.tickets),
        l.count,
      ]);
    };
    expect(await board(d.admin, '?showAll=true')).to.deep.equal([
      [null, [], 0],
      ['Doing', [t2.id], 1],
      ['To do', [t1.id], 1],
    ]);
    expect(await board(d.ana.api)).to.deep.equal([
      [null, [], 0],
      ['Doing', [], 0],
      ['To do', [t1.id], 1],
    ]);
    expect(await board(d.bia.api, '?status=open')).to.deep.equal([
      [null, [], 0],
      ['Doing', [t2.id], 1],
      ['To do', [], 0],
    ]);
    expect((await d.admin.get('/ticket/kanban?status=closed')).status).to.equal(422);
    const lane = (await d.admin.get('/ticket/kanban?showAll=true')).body.lanes[1];
    expect(lane.tickets[0].contact).to.include({ number: '5511977772002' });
    expect(idsOf(lane.tickets[0].tags)).to.deep.equal([doing.id]);
  });

  it('tags contacts: sync and take one off; another company gets 404 on every tag route with our ids', async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511977773001', 'Oi');
    const vip = (await d.admin.post('/tags', { name: 'VIP', color: '#ffaa00' })).body;
    const lead = (await d.admin.post('/tags', { name: 'Lead', color: '#00aa00' })).body;
    const synced = await d.ana.api.post('/tags/sync', { contactId: t.contactId, tagIds: [vip.id, lead.id] });
    expect(synced.body).to.deep.equal({
      contactId: t.contactId,
      tags: [
        { id: lead.id, name: 'Lead', color: '#00aa00', kanban: false },
        { id: vip.id, name: 'VIP', color: '#ffaa00', kanban: false },
      ],
    });
    const left = await d.bia.api.delete(`/tags-contacts/${lead.id}/${t.contactId}`);
    expect(left.body).to.deep.equal({ contactId: t.contactId, tags: [{ id: vip.id, name: 'VIP', color: '#ffaa00', kanban: false }] });
    expect((await d.bia.api.delete(`/tags-contacts/${lead.id}/999999`)).body).to.deep.equal({ error: 'ERR_NO_CONTACT_FOUND' });

    const other = await newCompanyWithAdmin(b);
    const o = other.api;
    const theirs = (await o.post('/tags', { name: 'VIP', color: '#ffaa00' })).body;
    expect(theirs.id).to.not.equal(vip.id);
    expect((await o.get('/tags/list')).body.map((x: { id: number }) => x.id)).to.deep.equal([theirs.id]);
    expect((await o.get('/tags')).body.count).to.equal(1);
    expect((await o.get(`/tickets?showAll=true&tags=[${vip.id}]`)).body.count).to.equal(0);
    for (const res of [
      await o.get(`/tags/${vip.id}`),
      await o.put(`/tags/${vip.id}`, { name: 'Mine' }),
      await o.delete(`/tags/${vip.id}`),
      await o.post('/tags/sync', { ticketId: t.id, tagIds: [theirs.id] }),
      await o.post('/tags/sync', { contactId: t.contactId, tagIds: [theirs.id] }),
      await o.post('/tags/sync', { ticketId: t.id, tagIds: [] }),
      await o.post('/tags/sync', { contactId: t.contactId, tagIds: [] }),
      await o.delete(`/tags-contacts/${theirs.id}/${t.contactId}`),
      await o.delete(`/tags-contacts/${vip.id}/${t.contactId}`),
      await o.put(`/ticket-tags/${t.id}/${theirs.id}`),
      await o.put(`/ticket-tags/${t.id}/${vip.id}`),
      await o.delete(`/ticket-tags/${t.id}`),
    ])
      expect(res.status, JSON.stringify(res.body)).to.equal(404);
    expect((await o.post('/tags/sync', { ticketId: t.id, tagIds: [vip.id] })).status).to.equal(404);
    expect((await d.admin.post('/tags/sync', { ticketId: t.id, tagIds: [theirs.id] })).body).to.deep.equal({ error: 'ERR_NO_TAG_FOUND' });
    expect((await d.admin.get(`/tags/${vip.id}`)).body.name).to.equal('VIP');
    expect((await d.admin.get('/tags/list')).body).to.have.length(2);
  });

  it('the kanban routes answer 403 for a company whose plan lacks the kanban; the other tag routes still work', async () => {
    const { api: root } = await asSuper(b);
    const plan = await root.post('/plans', { name: 'No kanban', users: 5, connections: 2, queues: 3, amount: '10.00', useKanban: false });
    expect(plan.status, JSON.stringify(plan.body)).to.equal(201);
    const small = await newCompanyWithAdmin(b, { planId: plan.body.id });
    for (const path of ['/tag/kanban', '/ticket/kanban']) {
      const res = await small.api.get(path);
      expect(res.status, path).to.equal(403);
      expect(res.body, path).to.deep.equal({ error: 'ERR_PLAN_FEATURE_DISABLED' });
    }
    expect((await small.api.post('/tags', { name: 'Lane', color: '#123456', kanban: true })).status).to.equal(201);
    expect((await small.api.get('/tags/list?kanban=1')).body).to.have.length(1);
    const full = await newCompanyWithAdmin(b);
    expect((await full.api.get('/tag/kanban')).body).to.deep.equal({ lista: [] });
    expect((await full.api.get('/ticket/kanban')).body).to.deep.equal({ tickets: [], lanes: [{ tag: null, tickets: [], count: 0, hasMore: false }] });
  });
});
