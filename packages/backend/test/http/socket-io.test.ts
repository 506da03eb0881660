import { expect } from 'chai';
import { io } from 'socket.io-client';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { login, newCompanyWithAdmin, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { openNamespace } from '../support/namespace-client.js';
import { openSocketIo, type Emitted } from '../support/socket-io-client.js';

/** The ticket ids an event is about. */
function ticketIdsOf(e: Emitted): number[] {
  const d = e.data;
  return [d.ticket?.id, d.message?.ticketId, d.ticketId, ...(d.ticketIds ?? [])].filter((x): x is number => typeof x === 'number');
}

describe("Realtime over socket.io (the lineage client's transport)", () => {
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

  it("delivers ticket and message events of HTTP calls, with the ws frame's data unchanged, on the company namespace", async () => {
    const d = await sandboxDesk(b);
    const ticket = await d.inbound('5511977770001', 'Oi');
    const companyId = ticket.companyId as number;
    const { token } = await login(b.url, 'root@example.com', 'root-password-1');
    const viaAuth = openSocketIo(b.url, companyId, token, 'auth');
    const viaQuery = openSocketIo(b.url, companyId, token, 'query');
    await Promise.all([viaAuth.connected, viaQuery.connected]);
    // Engine.IO upgrades from polling to a websocket on /socket.io/, beside the ws namespaces' upgrades.
    await eventually('the upgrade to a websocket', () => [viaAuth, viaQuery].every((c) => c.socket.io.engine.transport.name === 'websocket'));
    const ws = await openNamespace(b.url, companyId, token);
    // The client emits its room events; they are accepted and change nothing it may read.
    viaAuth.socket.emit('joinChatBox', String(ticket.id));
    viaAuth.socket.emit('joinNotification');
    viaAuth.socket.emit('joinTickets', 'open');
    viaAuth.socket.emit('someUnknownEvent', { userId: 1 });

    expect((await d.admin.put(`/tickets/${ticket.id}`, { status: 'open' })).status).to.equal(200);
    expect((await d.admin.post(`/messages/${ticket.id}`, { body: 'a note', isPrivate: true })).status).to.equal(200);

    for (const client of [viaAuth, viaQuery]) {
      const updated = await client.waitFor((e) => e.event === `company-${companyId}-ticket` && e.data.action === 'update' && e.data.ticket?.id === ticket.id);
      expect(updated.data.ticket.status).to.equal('open');
      const message = await client.waitFor((e) => e.event === `company-${companyId}-appMessage` && e.data.message?.body === 'a note');
      expect(message.data.action).to.equal('create');
      expect(message.data).to.not.have.property('seq');
      const frame = await ws.waitFor((f) => f.event === message.event && f.data.message?.body === 'a note');
      expect(message.data).to.deep.equal(frame.data);
    }
    expect(b.http.socketIo!.connections(companyId)).to.equal(2);
    viaAuth.close();
    viaQuery.close();
    ws.close();
    await eventually('the sockets to be forgotten', () => b.http.socketIo!.connections(companyId) === 0);
  });

  it("refuses a bad token, another company's namespace and the main namespace (connect_error)", async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    const refused = async (client: ReturnType<typeof openSocketIo>) =>
      client.connected.then(
        () => {
          throw new Error('connected');
        },
        (err: Error & { data?: { status: number } }) => err,
      );
    const bad = await refused(openSocketIo(b.url, a.company.id, 'garbage'));
    expect(bad.data?.status).to.equal(401);
    const missing = await refused(openSocketIo(b.url, a.company.id, '', 'query'));
    expect(missing.data?.status).to.equal(401);
    const cross = await refused(openSocketIo(b.url, other.company.id, a.token));
    expect(cross.data?.status).to.equal(403);
    expect(cross.message).to.equal('ERR_NO_PERMISSION');
    const main = io(b.url, { auth: { token: a.token }, reconnection: false, forceNew: true });
    const mainErr = await new Promise<Error>((resolve) => main.once('connect_error', resolve));
    main.close();
    expect(mainErr.message).to.equal('ERR_ROUTE_NOT_FOUND');
    // A company-wide event reaches only the company's own, accepted socket.
    const own = openSocketIo(b.url, a.company.id, a.token);
    await own.connected;
    await a.api.put('/settings/userRating', { value: 'enabled' });
    const setting = await own.waitFor((e) => e.event === `company-${a.company.id}-settings`);
    expect(setting.data.setting).to.deep.equal({ key: 'userRating', value: 'enabled' });
    own.close();
  });

  it("a user gets only the tickets it may read (no queue B ticket, no private note about it); the ws transport's plain upgrades still work beside it", async () => {
    const d = await sandboxDesk(b);
    const queueA = (await d.admin.post('/queue', { name: 'Queue A', color: '#112233', userIds: [d.ana.id] })).body.id as number;
    const queueB = (await d.admin.post('/queue', { name: 'Queue B', color: '#332211', userIds: [d.bia.id] })).body.id as number;
    const inA = await d.inbound('5511977770011', 'Oi A');
    expect((await d.admin.put(`/tickets/${inA.id}`, { queueId: queueA })).status).to.equal(200);
    const inB = await d.inbound('5511977770012', 'Oi B');
    expect((await d.admin.put(`/tickets/${inB.id}`, { queueId: queueB })).status).to.equal(200);
    expect((await d.ana.api.get(`/messages/${inB.id}`)).status).to.equal(403);

    const companyId = inA.companyId as number;
    const { token: anaToken } = await login(b.url, 'ana@desk.test', 'operator-pass-1');
    const { token: adminToken } = await login(b.url, 'root@example.com', 'root-password-1');
    const ana = openSocketIo(b.url, companyId, anaToken);
    const admin = openSocketIo(b.url, companyId, adminToken);
    await Promise.all([ana.connected, admin.connected]);
    // Joining queue B's ticket's chat box does not widen what Ana receives.
    ana.socket.emit('joinChatBox', String(inB.id));
    const anaWs = await openNamespace(b.url, companyId, anaToken);

    await d.admin.post(`/messages/${inB.id}`, { body: 'secret about B', isPrivate: true });
    expect((await d.admin.put(`/tickets/${inB.id}`, { status: 'open' })).status).to.equal(200);
    await d.admin.post(`/messages/${inA.id}`, { body: 'note on A', isPrivate: true });

    // Events come in seq order: once the note on A arrived, anything about B would have come before it.
    await ana.waitFor((e) => e.data.message?.body === 'note on A');
    await admin.waitFor((e) => e.data.message?.body === 'note on A');
    await anaWs.waitFor((f) => f.data.message?.body === 'note on A');
    expect(ana.events.flatMap(ticketIdsOf)).to.include(inA.id);
    expect(ana.events.flatMap(ticketIdsOf), 'an event of the queue B ticket').to.not.include(inB.id);
    expect(ana.events.some((e) => /secret/.test(JSON.stringify(e)))).to.equal(false);
    expect(admin.events.flatMap(ticketIdsOf)).to.include.members([inA.id, inB.id]);
    expect(admin.events.map((e) => e.data.message?.body)).to.include('secret about B');
    // Both transports give Ana the same events.
    expect(ana.events.map((e) => [e.event, e.data])).to.deep.equal(anaWs.frames.map((f) => [f.event, f.data]));
    ana.close();
    admin.close();
    anaWs.close();
  });

  it('disconnects the socket of a user who is deleted', async () => {
    const d = await sandboxDesk(b);
    const companyId = (await d.bia.api.get('/auth/me')).body.companyId as number;
    const { token } = await login(b.url, 'bia@desk.test', 'operator-pass-1');
    const bia = openSocketIo(b.url, companyId, token);
    await bia.connected;
    const gone = new Promise<string>((resolve) => bia.socket.once('disconnect', (reason) => resolve(reason)));
    expect((await d.admin.delete(`/users/${d.bia.id}`)).status).to.be.oneOf([200, 204]);
    expect(await gone).to.equal('io server disconnect');
    await eventually('the namespace to forget the socket', () => b.http.socketIo!.connections(companyId) === 0);
  });

  it('stopping the server disconnects socket.io clients and closes cleanly', async () => {
    const own = await startTestBackend();
    try {
      const { token, user } = await login(own.url, 'root@example.com', 'root-password-1');
      const client = openSocketIo(own.url, user.companyId as number, token);
      await client.connected;
      const gone = new Promise<string>((resolve) => client.socket.once('disconnect', (reason) => resolve(reason)));
      await own.close();
      expect(await gone).to.equal('io server disconnect');
      client.close();
    } catch (err) {
      await own.close().catch(() => undefined);
      throw err;
    }
  });
});
