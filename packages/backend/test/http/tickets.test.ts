import { expect } from 'chai';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';

describe('HTTP: tickets, end to end with the sandbox', () => {
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

  it('lists an inbound conversation with its contact and connection; each profile sees its own scope', async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511977770001', 'Oi, preciso de ajuda', { senderName: 'Joana Araújo' });
    expect(t).to.include({ status: 'pending', unreadMessages: 1, lastMessage: 'Oi, preciso de ajuda', userId: null });
    expect(t.contact).to.include({ name: 'Joana Araújo', number: '5511977770001' });
    expect(t.chatapp).to.include({ id: d.connectionId, name: 'Sandbox' });
    expect(t).to.include({ chatappId: d.connectionId, channel: 'chatapp', queue: null });
    expect((await d.bia.api.get('/tickets')).body).to.deep.include({ count: 1, hasMore: false });
    const accepted = await d.ana.api.put(`/tickets/${t.id}`, { status: 'open' });
    expect(accepted.status, JSON.stringify(accepted.body)).to.equal(200);
    expect(accepted.body).to.include({ status: 'open', userId: d.ana.id });
    expect(accepted.body.user).to.deep.equal({ id: d.ana.id, name: 'Ana' });
    expect((await d.ana.api.get('/tickets?status=open')).body.tickets.map((x: { id: number }) => x.id)).to.deep.equal([t.id]);
    expect((await d.bia.api.get('/tickets')).body.count).to.equal(0);
    expect((await d.bia.api.get('/tickets?showAll=true')).body.count).to.equal(0);
    expect((await d.bia.api.get(`/tickets/${t.id}`)).status).to.equal(403);
    expect((await d.bia.api.get(`/tickets/u/${t.uuid}`)).status).to.equal(403);
    expect((await d.ana.api.get(`/tickets/u/${t.uuid}`)).body.id).to.equal(t.id);
    expect((await d.admin.get('/tickets/count?status=open')).body).to.deep.equal({ count: 0 });
    expect((await d.admin.get('/tickets/count?status=open&showAll=true')).body).to.deep.equal({ count: 1 });
    expect((await d.admin.get(`/tickets?showAll=true&users=[${d.ana.id}]&searchParam=joana%20araujo`)).body.count).to.equal(1);
    expect((await d.admin.get(`/tickets?showAll=true&users=${d.bia.id}`)).body.count).to.equal(0);
    expect((await d.admin.get('/tickets?showAll=true&tags=[]')).body.count).to.equal(1);
    expect((await d.admin.get('/tickets?showAll=true&tags=[3]')).body.count).to.equal(0);
  });

  it('keeps tenants apart: another company gets 404 on every ticket route and sees none in its lists', async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511977770002', 'Olá');
    const other = await newCompanyWithAdmin(b);
    const o = other.api;
    expect((await o.get('/tickets?showAll=true')).body.count).to.equal(0);
    for (const res of [
      await o.get(`/tickets/${t.id}`),
      await o.get(`/tickets/u/${t.uuid}`),
      await o.get(`/tickets-log/${t.id}`),
      await o.put(`/tickets/${t.id}`, { status: 'closed' }),
      await o.put(`/tickets/${t.id}/ignore`),
      await o.delete(`/tickets/${t.id}`),
      await o.post('/lgpd-response', { ticketId: t.id, accepted: false }),
      await o.post('/tickets', { contactId: t.contactId, chatappId: d.connectionId }),
    ])
      expect(res.status, JSON.stringify(res.body)).to.equal(404);
    expect((await o.post('/tickets/closeAll')).body).to.deep.equal({ closed: 0 });
    expect((await d.admin.get(`/tickets/${t.id}`)).body.status).to.equal('pending');
  });

  it('creates a ticket with a known contact (201), refuses a second active one (409) and unknown contacts (404)', async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511977770003', 'Oi');
    expect((await d.admin.post('/tickets', { contactId: t.contactId, chatappId: d.connectionId })).body).to.deep.equal({ error: 'ERR_OTHER_OPEN_TICKET' });
    expect((await d.ana.api.put(`/tickets/${t.id}`, { status: 'closed', sendFarewellMessage: false })).status).to.equal(200);
    const created = await d.ana.api.post('/tickets', { contactId: t.contactId, chatappId: d.connectionId });
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    expect(created.body).to.include({ status: 'open', userId: d.ana.id, contactId: t.contactId });
    const again = await d.ana.api.post('/tickets', { contactId: t.contactId, chatappId: d.connectionId });
    expect(again.status).to.equal(409);
    expect((await d.ana.api.post('/tickets', { contactId: 999_999, chatappId: d.connectionId })).status).to.equal(404);
    expect((await d.ana.api.post('/tickets', { contactId: t.contactId, chatappId: 999_999 })).status).to.equal(404);
    expect((await d.ana.api.post('/tickets', { contactId: 'x' })).status).to.equal(422);
    const reopen = await d.admin.put(`/tickets/${t.id}`, { status: 'open' });
    expect(reopen.status).to.equal(409);
    expect(reopen.body).to.deep.equal({ error: 'ERR_OTHER_OPEN_TICKET' });
  });

  it('closing sends the farewell through the sandbox and records the rating; the log tells the story', async () => {
    const d = await sandboxDesk(b, { farewellMessage: 'Até logo!' });
    const t = await d.inbound('5511977770004', 'Oi');
    await d.ana.api.put(`/tickets/${t.id}`, { status: 'open' });
    await d.ana.api.put(`/tickets/${t.id}`, { userId: d.bia.id });
    expect((await d.ana.api.put(`/tickets/${t.id}`, { status: 'closed' })).status).to.equal(403);
    const closed = await d.bia.api.put(`/tickets/${t.id}`, { status: 'closed', rating: 5 });
    expect(closed.body).to.include({ status: 'closed', lastMessage: 'Até logo!' });
    await eventually('the farewell at the sandbox', async () => d.sent().some((s) => s.to === '5511977770004' && s.content.body === 'Até logo!'));
    const logs = await d.admin.get(`/tickets-log/${t.id}`);
    expect(logs.body.map((l: { type: string; user: { name: string } }) => [l.type, l.user.name])).to.deep.equal([
      ['open', 'Ana'],
      ['transfered', 'Ana'],
      ['closed', 'Bia'],
    ]);
    expect(logs.body[2].payload).to.deep.include({ rating: 5, farewell: true });
    const reopened = await d.admin.put(`/tickets/${t.id}`, { status: 'pending' });
    expect(reopened.body).to.include({ status: 'pending', userId: null, closedAt: null });
  });

  it('ignores, records LGPD answers, closes all, deletes (admin), and reports', async () => {
    const d = await sandboxDesk(b);
    const a = await d.inbound('5511977770005', 'spam');
    const c = await d.inbound('5511977770006', 'Oi');
    const e = await d.inbound('5511977770007', 'Olá');
    expect((await d.ana.api.put(`/tickets/${a.id}/ignore`)).body).to.include({ status: 'closed' });
    expect((await d.ana.api.post('/lgpd-response', { ticketId: c.id, accepted: false })).body).to.include({ status: 'closed' });
    expect(
      (await d.admin.get(`/tickets-log/${c.id}`)).body.map((l: { type: string; payload: { accepted: boolean } }) => [l.type, l.payload.accepted]),
    ).to.deep.equal([['lgpd', false]]);
    await d.bia.api.put(`/tickets/${e.id}`, { status: 'open' });
    expect((await d.ana.api.post('/tickets/closeAll', {})).body).to.deep.equal({ closed: 0 });
    expect((await d.admin.post('/tickets/closeAll', { status: 'open' })).body).to.deep.equal({ closed: 1 });
    const report = await d.admin.get('/ticketreport/reports?status=closed');
    expect(report.body.count).to.equal(3);
    expect(report.body.tickets.find((t: { id: number }) => t.id === e.id)).to.deep.include({
      status: 'closed',
      messages: 1,
      user: { id: d.bia.id, name: 'Bia' },
    });
    expect(report.body.totalTickets).to.deep.equal({ total: 3 });
    // The lineage's Reports page sends its status picks as JSON, `[]` for none.
    const picked = await d.admin.get(`/ticketreport/reports?status=${encodeURIComponent('["closed"]')}`);
    expect([picked.status, picked.body.count, picked.body.totalTickets]).to.deep.equal([200, 3, { total: 3 }]);
    const all = (await d.admin.get('/ticketreport/reports')).body.count as number;
    expect((await d.admin.get(`/ticketreport/reports?status=${encodeURIComponent('[]')}`)).body.totalTickets).to.deep.equal({ total: all });
    const some = await d.admin.get(`/ticketreport/reports?status=${encodeURIComponent('["open","closed"]')}`);
    expect(some.body.tickets.every((t: { status: string }) => t.status === 'open' || t.status === 'closed')).to.equal(true);
    expect(some.body.count).to.equal((await d.admin.get('/ticketreport/reports?status=open')).body.count + 3);
    expect((await d.admin.get(`/ticketreport/reports?status=${encodeURIComponent('["bogus"]')}`)).status).to.equal(422);
    expect((await d.ana.api.get('/ticketreport/reports')).status).to.equal(403);
    expect((await d.ana.api.delete(`/tickets/${a.id}`)).status).to.equal(403);
    expect((await d.admin.delete(`/tickets/${a.id}`)).body).to.deep.equal({ message: 'Ticket deleted' });
    expect((await d.admin.get(`/tickets/${a.id}`)).status).to.equal(404);
    expect((await d.admin.get(`/messages/${a.id}`)).status).to.equal(404);
  });

  it('answers bad input with 4xx and an error body', async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511977770008', 'Oi');
    const bad = [
      await d.admin.get('/tickets/abc'),
      await d.admin.get('/tickets?status=bogus'),
      await d.admin.get('/tickets?dateFrom=2026-13-01'),
      await d.admin.get('/tickets?queueIds=[0]'),
      await d.admin.put(`/tickets/${t.id}`, { status: 'bogus' }),
      await d.admin.put(`/tickets/${t.id}`, { status: 'closed', rating: 9 }),
      await d.admin.put(`/tickets/${t.id}`, {}),
      await d.admin.post('/lgpd-response', { ticketId: t.id }),
      await d.admin.get('/ticketreport/reports?dateFrom=yesterday'),
    ];
    for (const res of bad) {
      expect(res.status, JSON.stringify(res.body)).to.equal(422);
      expect(res.body.error).to.be.a('string');
    }
    expect((await d.admin.put(`/tickets/${t.id}`, '{"status":')).status).to.equal(400);
    expect((await d.admin.get('/tickets/999999')).status).to.equal(404);
    expect((await d.admin.put(`/tickets/${t.id}`, { userId: 999_999 })).body).to.deep.equal({ error: 'ERR_NO_USER_FOUND' });
    expect((await d.admin.get(`/tickets/${t.id}`)).body).to.include({ status: 'pending', userId: null });
  });
});
