import { expect } from 'chai';
import { sandboxDesk } from '../support/sandbox-conversations.js';
import { login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { openNamespace, type Frame } from '../support/namespace-client.js';
import { openSocketIo } from '../support/socket-io-client.js';

const viewerFrames = (frames: Frame[]) => frames.filter((f) => f.event.endsWith('-ticketViewer'));

describe('Realtime: who else is viewing a ticket, and marking a conversation unread', () => {
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

  it("announces a viewer, taken from the socket's session, to those who may read the ticket only; leaves on leave and on close; never replayed", async () => {
    const d = await sandboxDesk(b);
    const queueA = (await d.admin.post('/queue', { name: 'Queue A', color: '#112233', userIds: [d.ana.id] })).body.id as number;
    const queueB = (await d.admin.post('/queue', { name: 'Queue B', color: '#332211', userIds: [d.bia.id] })).body.id as number;
    const inA = await d.inbound('5511955550001', 'Oi A');
    expect((await d.admin.put(`/tickets/${inA.id}`, { queueId: queueA })).status).to.equal(200);
    const inB = await d.inbound('5511955550002', 'Oi B');
    expect((await d.admin.put(`/tickets/${inB.id}`, { queueId: queueB })).status).to.equal(200);
    const companyId = inA.companyId as number;
    const other = await newCompanyWithAdmin(b);
    const theirChatapp = await other.api.post('/chatapp/', { name: 'Theirs', provider: 'sandbox' });
    const theirs = await other.api.post('/contacts', { name: 'Theirs', number: '5511955550009' });
    const theirTicket = await other.api.post('/tickets', { contactId: theirs.body.id, chatappId: theirChatapp.body.id, status: 'open' });
    expect(theirTicket.status, JSON.stringify(theirTicket.body)).to.equal(201);

    const ana = await openNamespace(b.url, companyId, (await login(b.url, 'ana@desk.test', 'operator-pass-1')).token);
    const bia = await openNamespace(b.url, companyId, (await login(b.url, 'bia@desk.test', 'operator-pass-1')).token);
    const adminToken = (await login(b.url, 'root@example.com', 'root-password-1')).token;
    const admin = await openNamespace(b.url, companyId, adminToken);

    // Refused silently: a ticket Ana may not see, another company's, a bad id, an unknown event. The user id a message claims is never used.
    ana.send({ event: 'joinChatBox', data: inB.id });
    ana.send({ event: 'joinChatBox', data: theirTicket.body.id });
    ana.send({ event: 'joinChatBox', data: 'abc' });
    ana.send({ event: 'joinChatBox', data: -3 });
    ana.send('not json');
    ana.send({ event: 'joinChatBox', data: String(inA.id), userId: d.bia.id, userName: 'Bia' });
    const joined = await admin.waitFor((f) => f.event === `company-${companyId}-ticketViewer`, 10_000);
    expect(joined).to.deep.equal({ event: `company-${companyId}-ticketViewer`, data: { action: 'join', ticketId: inA.id, userId: d.ana.id, userName: 'Ana' } });
    expect(joined.seq, 'an ephemeral frame has no seq').to.equal(undefined);
    // Ana gets her own frame (her other tabs tell it apart by the user id).
    await ana.waitFor((f) => f.event.endsWith('-ticketViewer') && f.data.action === 'join', 10_000);

    // The admin views the queue B ticket: Bia (queue B) is told, Ana (queue A) is not.
    admin.send({ event: 'joinChatBox', data: inB.id });
    await bia.waitFor((f) => f.event.endsWith('-ticketViewer') && f.data.ticketId === inB.id && f.data.userId === d.adminId, 10_000);
    ana.send({ event: 'joinChatBoxLeave', data: inA.id });
    await admin.waitFor((f) => f.event.endsWith('-ticketViewer') && f.data.action === 'leave' && f.data.userId === d.ana.id, 10_000);
    // A company frame published after all of them: every viewer frame for Ana or Bia has arrived before it.
    await d.admin.put('/settings/userRating', { value: 'enabled' });
    await ana.waitFor((f) => f.event.endsWith('-settings'), 10_000);
    await bia.waitFor((f) => f.event.endsWith('-settings'), 10_000);
    await admin.waitFor((f) => f.event.endsWith('-settings'), 10_000);
    expect(viewerFrames(ana.frames).map((f) => [f.data.action, f.data.ticketId, f.data.userId])).to.deep.equal([
      ['join', inA.id, d.ana.id],
      ['leave', inA.id, d.ana.id],
    ]);
    expect(viewerFrames(bia.frames).map((f) => [f.data.action, f.data.ticketId])).to.deep.equal([['join', inB.id]]);
    expect(viewerFrames(admin.frames).map((f) => [f.data.action, f.data.ticketId, f.data.userId])).to.deep.equal([
      ['join', inA.id, d.ana.id],
      ['join', inB.id, d.adminId],
      ['leave', inA.id, d.ana.id],
    ]);

    // A socket that closes leaves every ticket it viewed.
    ana.send({ event: 'joinChatBox', data: inA.id });
    await admin.waitFor((f) => viewerFrames(admin.frames).filter((v) => v.data.action === 'join' && v.data.userId === d.ana.id).length === 2, 10_000);
    ana.close();
    await admin.waitFor((f) => viewerFrames(admin.frames).filter((v) => v.data.action === 'leave' && v.data.userId === d.ana.id).length === 2, 10_000);

    // A reconnect with `since` replays the numbered frames, never a viewer's.
    const firstSeq = admin.frames.find((f) => typeof f.seq === 'number')!.seq;
    const again = await openNamespace(b.url, companyId, `${adminToken}&since=${firstSeq - 1}`);
    await again.waitFor((f) => f.event.endsWith('-settings'), 10_000);
    expect(viewerFrames(again.frames)).to.deep.equal([]);
    again.close();
    bia.close();
    admin.close();
  });

  it("takes the lineage client's joinChatBox over socket.io too", async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511955550011', 'Oi');
    const companyId = t.companyId as number;
    const admin = await openNamespace(b.url, companyId, (await login(b.url, 'root@example.com', 'root-password-1')).token);
    const bia = openSocketIo(b.url, companyId, (await login(b.url, 'bia@desk.test', 'operator-pass-1')).token);
    await bia.connected;
    bia.socket.emit('joinChatBox', String(t.id));
    await admin.waitFor((f) => f.event.endsWith('-ticketViewer') && f.data.action === 'join' && f.data.userId === d.bia.id, 10_000);
    bia.socket.emit('joinChatBoxLeave', String(t.id));
    await admin.waitFor((f) => f.event.endsWith('-ticketViewer') && f.data.action === 'leave' && f.data.userId === d.bia.id, 10_000);
    bia.close();
    admin.close();
  });

  it('marks a conversation unread over PUT /tickets/:ticketId: the badge comes back for every operator, and reading resets it', async () => {
    const d = await sandboxDesk(b);
    const t = await d.inbound('5511955550021', 'Oi');
    const companyId = t.companyId as number;
    expect((await d.ana.api.put(`/tickets/${t.id}`, { status: 'open' })).status).to.equal(200);
    expect((await d.ana.api.get(`/messages/${t.id}`)).body.ticket.unreadMessages).to.equal(0);
    const bia = await openNamespace(b.url, companyId, (await login(b.url, 'bia@desk.test', 'operator-pass-1')).token);
    const admin = await openNamespace(b.url, companyId, (await login(b.url, 'root@example.com', 'root-password-1')).token);

    const marked = await d.ana.api.put(`/tickets/${t.id}`, { markUnread: true });
    expect(marked.status, JSON.stringify(marked.body)).to.equal(200);
    expect(marked.body).to.include({ id: t.id, unreadMessages: 1, status: 'open', userId: d.ana.id });
    const frame = await admin.waitFor((f) => f.event.endsWith('-ticket') && f.data.action === 'updateUnread' && f.data.ticketId === t.id, 10_000);
    expect(frame.data.ticket).to.include({ id: t.id, unreadMessages: 1 });
    const listed = (await d.admin.get('/tickets?showAll=true&withUnreadMessages=true')).body.tickets as Array<{ id: number }>;
    expect(listed.map((x) => x.id)).to.include(t.id);
    // Reading the messages resets it.
    expect((await d.ana.api.get(`/messages/${t.id}`)).body.ticket.unreadMessages).to.equal(0);
    // Bad input is a 4xx with its code; Bia may not see Ana's ticket; another company's admin gets 404.
    const bad = await d.ana.api.put(`/tickets/${t.id}`, { markUnread: 'yes' });
    expect(bad.status).to.equal(422);
    expect(bad.body.error).to.match(/^ERR_/);
    expect((await d.ana.api.put(`/tickets/${t.id}`, { markUnread: false })).body).to.deep.equal({ error: 'ERR_NOTHING_TO_UPDATE' });
    expect((await d.bia.api.put(`/tickets/${t.id}`, { markUnread: true })).body).to.deep.equal({ error: 'ERR_NO_PERMISSION' });
    const other = await newCompanyWithAdmin(b);
    expect((await other.api.put(`/tickets/${t.id}`, { markUnread: true })).status).to.equal(404);
    // Bia never got the frames of a ticket she may not read.
    await d.admin.put('/settings/userRating', { value: 'enabled' });
    await bia.waitFor((f) => f.event.endsWith('-settings'), 10_000);
    expect(bia.frames.some((f) => f.data.ticketId === t.id || f.data.ticket?.id === t.id)).to.equal(false);
    bia.close();
    admin.close();
  });
});
