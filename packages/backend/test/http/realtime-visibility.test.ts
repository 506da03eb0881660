import { expect } from 'chai';
import WebSocket from 'ws';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { login, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { openNamespace, type Frame } from '../support/namespace-client.js';

/** The ticket ids a frame is about (its ticket, its message's ticket, or the ids it lists). */
function ticketIdsOf(f: Frame): number[] {
  const d = f.data;
  return [d.ticket?.id, d.message?.ticketId, d.ticketId, ...(d.ticketIds ?? [])].filter((x): x is number => typeof x === 'number');
}

describe('Realtime: each socket receives only what its user may read', () => {
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

  it("a user gets frames of the tickets it may read, none of a queue B or another user's ticket (not even private notes); an admin gets all", async () => {
    const d = await sandboxDesk(b);
    const queueA = (await d.admin.post('/queue', { name: 'Queue A', color: '#112233', userIds: [d.ana.id] })).body.id as number;
    const queueB = (await d.admin.post('/queue', { name: 'Queue B', color: '#332211', userIds: [d.bia.id] })).body.id as number;
    const inA = await d.inbound('5511966660001', 'Oi A');
    expect((await d.admin.put(`/tickets/${inA.id}`, { queueId: queueA })).status).to.equal(200);
    const inB = await d.inbound('5511966660002', 'Oi B');
    expect((await d.admin.put(`/tickets/${inB.id}`, { queueId: queueB })).status).to.equal(200);
    const biaOwn = await d.inbound('5511966660003', 'Oi Bia');
    expect((await d.bia.api.put(`/tickets/${biaOwn.id}`, { status: 'open' })).status).to.equal(200);
    // The HTTP rule the sockets must follow.
    expect((await d.ana.api.get(`/messages/${inA.id}`)).status).to.equal(200);
    expect((await d.ana.api.get(`/messages/${inB.id}`)).status).to.equal(403);
    expect((await d.ana.api.get(`/messages/${biaOwn.id}`)).status).to.equal(403);

    const { token: anaToken } = await login(b.url, 'ana@desk.test', 'operator-pass-1');
    const { token: adminToken } = await login(b.url, 'root@example.com', 'root-password-1');
    const companyId = inA.companyId as number;
    const ana = await openNamespace(b.url, companyId, anaToken);
    const admin = await openNamespace(b.url, companyId, adminToken);

    const note = async (ticketId: number, body: string) => {
      const res = await d.admin.post(`/messages/${ticketId}`, { body, isPrivate: true });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    await note(inB.id, 'secret about B');
    await note(biaOwn.id, "secret about Bia's ticket");
    expect((await d.admin.put(`/tickets/${inB.id}`, { queueId: queueB })).status).to.equal(200);
    await d.inbound('5511966660002', 'more from B');
    await note(inA.id, 'note on A');
    await d.admin.put('/settings/userRating', { value: 'enabled' });

    // Frames come in seq order: once the last ones arrived, everything before them has too.
    const last = await ana.waitFor((f) => f.event.endsWith('-settings'), 10_000);
    await ana.waitFor((f) => f.data.message?.body === 'note on A', 10_000);
    await admin.waitFor((f) => f.event.endsWith('-settings'), 10_000);
    const anaTickets = new Set(ana.frames.flatMap(ticketIdsOf));
    expect(anaTickets.has(inA.id)).to.equal(true);
    expect(anaTickets.has(inB.id), 'a frame of the queue B ticket').to.equal(false);
    expect(anaTickets.has(biaOwn.id), "a frame of Bia's ticket").to.equal(false);
    expect(ana.frames.some((f) => /secret/.test(JSON.stringify(f)))).to.equal(false);
    const adminTickets = new Set(admin.frames.flatMap(ticketIdsOf));
    expect([inA.id, inB.id, biaOwn.id].every((id) => adminTickets.has(id))).to.equal(true);
    expect(admin.frames.filter((f) => f.data.message?.isPrivate).map((f) => f.data.message.body)).to.include.members([
      'secret about B',
      "secret about Bia's ticket",
      'note on A',
    ]);
    // Seq stays increasing for both; the user's has gaps where frames were not for it.
    for (const frames of [ana.frames, admin.frames]) {
      const seqs = frames.map((f) => f.seq);
      expect(seqs).to.deep.equal([...seqs].sort((x, y) => x - y));
    }
    expect(ana.frames.length).to.be.lessThan(admin.frames.length);

    // Replay applies the same filter.
    const first = admin.frames[0]!.seq;
    const again = await openNamespace(`${b.url}`, companyId, `${anaToken}&since=${first - 1}`);
    await again.waitFor((f) => f.seq === last.seq, 10_000);
    expect(again.frames.flatMap(ticketIdsOf).some((id) => id === inB.id || id === biaOwn.id)).to.equal(false);
    expect(again.frames.map((f) => f.seq)).to.deep.equal(ana.frames.filter((f) => f.seq <= last.seq).map((f) => f.seq));
    again.close();
    ana.close();
    admin.close();
  });

  it("a socket follows its user's access: joining queue B lets it see queue B's tickets", async () => {
    const d = await sandboxDesk(b);
    const queueB = (await d.admin.post('/queue', { name: 'Queue B', color: '#332211', userIds: [d.bia.id] })).body.id as number;
    const inB = await d.inbound('5511966660011', 'Oi B');
    expect((await d.admin.put(`/tickets/${inB.id}`, { queueId: queueB })).status).to.equal(200);
    const { token } = await login(b.url, 'ana@desk.test', 'operator-pass-1');
    const ana = await openNamespace(b.url, inB.companyId, token);
    await d.admin.post(`/messages/${inB.id}`, { body: 'before joining', isPrivate: true });
    expect((await d.admin.put(`/queue/${queueB}`, { userIds: [d.bia.id, d.ana.id] })).status).to.equal(200);
    await ana.waitFor((f) => f.event.endsWith('-queue'), 10_000);
    await d.admin.post(`/messages/${inB.id}`, { body: 'after joining', isPrivate: true });
    await ana.waitFor((f) => f.data.message?.body === 'after joining', 10_000);
    expect(ana.frames.some((f) => f.data.message?.body === 'before joining')).to.equal(false);
    ana.close();
  });

  it('closes the socket of a user who is deleted, and of one whose password an admin changes', async () => {
    const d = await sandboxDesk(b);
    const companyId = (await d.bia.api.get('/auth/me')).body.companyId as number;
    const connect = async (email: string) => {
      const { token } = await login(b.url, email, 'operator-pass-1');
      const ws = new WebSocket(`${b.url.replace('http', 'ws')}/${companyId}?token=${token}`);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      return {
        closed: new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: String(reason) }))),
      };
    };
    const bia = await connect('bia@desk.test');
    const ana = await connect('ana@desk.test');
    expect((await d.admin.delete(`/users/${d.bia.id}`)).status).to.be.oneOf([200, 204]);
    expect(await bia.closed).to.deep.equal({ code: 4001, reason: 'ERR_SESSION_EXPIRED' });
    expect((await d.admin.put(`/users/${d.ana.id}`, { password: 'another-pass-2' })).status).to.equal(200);
    expect(await ana.closed).to.deep.equal({ code: 4001, reason: 'ERR_SESSION_EXPIRED' });
    await eventually('the namespace to forget the sockets', async () => b.http.namespaces.connections(companyId) === 0);
  });
});
