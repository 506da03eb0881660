import { expect } from 'chai';
import { advanceDelivery, createApplication, SUBJECTS, type Connection, type InboundMessageEvent } from '../../src/index.js';
import { createInMemoryPorts } from '../../src/testing.js';

async function setup(overrides: Partial<Connection> = {}) {
  const ports = createInMemoryPorts();
  // The outbox is relayed by hand here, to see each step (the backend relays after every commit).
  const app = createApplication({ ...ports, relayAfterCommit: false });
  await app.tenancy.seedPlatform.execute({ adminEmail: 'root@x.test', adminPassword: 'root-password', passwordIsDefault: false });
  const now = ports.clock.now();
  const connection = await ports.connections.add({
    companyId: 1,
    name: 'Main',
    kind: 'chatapp',
    provider: 'sandbox',
    status: 'CONNECTED',
    qrcode: null,
    greetingMessage: 'Welcome!',
    farewellMessage: null,
    outOfHoursMessage: null,
    isDefault: true,
    tokenDigest: ports.digester.digest('api-token-123'),
    tokenHint: 'api-…123',
    externalId: null,
    secrets: {},
    reopenWindowMinutes: 0,
    greetingMediaKey: null,
    promptId: null,
    createdAt: now,
    updatedAt: now,
    ...overrides,
  });
  return { ports, app, connection };
}

function inbound(chatappId: number, id: string, body = 'hello'): InboundMessageEvent {
  return {
    type: 'InboundMessage',
    companyId: 1,
    chatappId,
    providerMessageId: id,
    from: '5511999990000',
    senderName: 'Ana',
    body,
    isGroup: false,
    at: '2026-01-01T12:00:00.000Z',
  };
}

describe('Messaging spine (in-memory)', () => {
  it('the same inbound message delivered 10 times at once yields 1 message, 1 ticket, 1 greeting', async () => {
    const { ports, app, connection } = await setup();
    const results = await Promise.all(Array.from({ length: 10 }, () => app.conversations.routeInbound.execute(inbound(connection.id, 'wamid-1'))));
    expect(results.filter((r) => !r.duplicate)).to.have.length(1);
    expect(ports.tickets.table.filter(() => true)).to.have.length(1);
    const stored = [...ports.messages.rows.values()];
    expect(stored.filter((m) => !m.fromMe)).to.have.length(1);
    expect(stored.filter((m) => m.fromMe).map((m) => m.body)).to.deep.equal(['Welcome!']);
    expect(ports.outbox.entries.map((e) => e.subject)).to.deep.equal([SUBJECTS.sessionSend(connection.id)]);
    const ticket = ports.tickets.table.filter(() => true)[0]!;
    expect(ticket).to.include({ status: 'pending', unreadMessages: 1, lastMessage: 'hello' });
    expect(ports.realtime.events.map((e) => `${e.entity}:${e.data.action}`)).to.deep.equal(['ticket:create', 'appMessage:create', 'appMessage:create']);
  });

  it('a second message of the conversation joins the same ticket and is not greeted again', async () => {
    const { ports, app, connection } = await setup();
    await app.conversations.routeInbound.execute(inbound(connection.id, 'wamid-1'));
    const second = await app.conversations.routeInbound.execute(inbound(connection.id, 'wamid-2', 'are you there?'));
    expect(second.greeted).to.equal(false);
    expect(ports.tickets.table.filter(() => true)).to.have.length(1);
    expect(ports.tickets.table.filter(() => true)[0]!.unreadMessages).to.equal(2);
  });

  it('reopens a ticket closed within the connection window instead of opening a new one', async () => {
    const { ports, app, connection } = await setup({ reopenWindowMinutes: 30 });
    const first = await app.conversations.routeInbound.execute(inbound(connection.id, 'wamid-1'));
    const t = (await ports.tickets.findById(1, first.ticketId!))!;
    await ports.tickets.update({ ...t, status: 'closed', closedAt: ports.clock.now() });
    ports.clock.advance(10 * 60_000);
    const again = await app.conversations.routeInbound.execute(inbound(connection.id, 'wamid-2'));
    expect(again.ticketId).to.equal(first.ticketId);
    expect((await ports.tickets.findById(1, first.ticketId!))!.status).to.equal('pending');
  });

  it('an API send is accepted as pending with its command in the outbox, and goes out through the relay', async () => {
    const { ports, app, connection } = await setup();
    const res = await app.conversations.sendApiMessage.execute({ connection, number: '5511988887777', body: 'Your order shipped', sendSignature: false });
    expect(res.status).to.equal('SUCCESS');
    const message = (await ports.messages.findById(1, res.messageId))!;
    expect(message).to.include({ status: 'pending', fromMe: true, body: 'Your order shipped' });
    expect(ports.outbox.entries).to.have.length(1);
    const received: unknown[] = [];
    await ports.broker.subscribe('runtime', 'cmd.>', async (e) => {
      received.push(e.payload);
    });
    expect(await app.outbox.relayOutbox.execute()).to.equal(1);
    await ports.broker.idle();
    expect(received).to.have.length(1);
    expect(received[0]).to.deep.include({ type: 'SessionSendMessage', messageId: res.messageId, chatappId: connection.id, to: '5511988887777' });
    expect(await app.outbox.relayOutbox.execute()).to.equal(0);
  });

  it('refuses bad numbers and empty messages, and an idempotency key makes a retry return the first result', async () => {
    const { ports, app, connection } = await setup();
    expect(await app.conversations.sendApiMessage.execute({ connection, number: '+55 (11) 9999', body: 'x' }).catch((e) => e.code)).to.equal(
      'ERR_INVALID_NUMBER',
    );
    expect(await app.conversations.sendApiMessage.execute({ connection, number: '5511988887777', body: '  ' }).catch((e) => e.code)).to.equal(
      'ERR_EMPTY_MESSAGE',
    );
    const a = await app.conversations.sendApiMessage.execute({ connection, number: '5511988887777', body: 'once', idempotencyKey: 'k1' });
    const b = await app.conversations.sendApiMessage.execute({ connection, number: '5511988887777', body: 'once', idempotencyKey: 'k1' });
    expect(b).to.deep.equal(a);
    expect(ports.outbox.entries).to.have.length(1);
  });

  it("refuses a userId that is no user of the connection's company with 404 ERR_NO_USER_FOUND, writing nothing", async () => {
    const { ports, app, connection } = await setup();
    expect(await app.conversations.sendApiMessage.execute({ connection, number: '5511988887777', body: 'x', userId: 999 }).catch((e) => e.code)).to.equal(
      'ERR_NO_USER_FOUND',
    );
    expect(ports.outbox.entries).to.have.length(0);
    expect(ports.tickets.table.filter(() => true)).to.have.length(0);
  });

  it('delivery status only moves forward, whatever order the provider reports in', async () => {
    const { ports, app, connection } = await setup();
    const res = await app.conversations.sendApiMessage.execute({ connection, number: '5511988887777', body: 'hi' });
    const base = { companyId: 1, chatappId: connection.id, at: '2026-01-01T12:00:00Z' };
    await app.conversations.applyChannelEvent.execute({ type: 'SessionMessageSent', messageId: res.messageId, providerMessageId: 'p-1', ...base });
    await app.conversations.applyChannelEvent.execute({ type: 'MessageStatusChanged', providerMessageId: 'p-1', status: 'read', ...base });
    await app.conversations.applyChannelEvent.execute({ type: 'MessageStatusChanged', providerMessageId: 'p-1', status: 'delivered', ...base });
    await app.conversations.applyChannelEvent.execute({ type: 'SessionMessageFailed', messageId: res.messageId, reason: 'late', ...base });
    expect((await ports.messages.findById(1, res.messageId))!).to.include({ status: 'read', providerMessageId: 'p-1', failureReason: null });
    expect(advanceDelivery('pending', 'failed')).to.equal('failed');
    expect(advanceDelivery('failed', 'read')).to.equal('failed');
  });

  it('delivery reports handled at once reach the store in one call and go out as one frame per change, in order', async () => {
    const { ports, app, connection } = await setup();
    const sends: string[] = [];
    for (const n of ['5511988887771', '5511988887772', '5511988887773'])
      sends.push((await app.conversations.sendApiMessage.execute({ connection, number: n, body: 'hi' })).messageId);
    const calls: number[] = [];
    const advance = ports.messages.advanceStatuses.bind(ports.messages);
    ports.messages.advanceStatuses = async (changes) => {
      calls.push(changes.length);
      return advance(changes);
    };
    const base = { companyId: 1, chatappId: connection.id, at: '2026-01-01T12:00:00Z' };
    const frames = ports.realtime.events.length;
    await Promise.all([
      ...sends.map((id, i) => app.conversations.applyChannelEvent.execute({ type: 'SessionMessageSent', messageId: id, providerMessageId: `p-${i}`, ...base })),
      ...sends.map((id, i) =>
        app.conversations.applyChannelEvent.execute({ type: 'MessageStatusChanged', messageId: id, providerMessageId: `p-${i}`, status: 'delivered', ...base }),
      ),
      app.conversations.applyChannelEvent.execute({ type: 'MessageStatusChanged', messageId: sends[0]!, providerMessageId: 'p-0', status: 'sent', ...base }),
    ]);
    expect(calls).to.deep.equal([7]);
    const updates = ports.realtime.events.slice(frames).map((e) => e.data as { action: string; message: { id: string; ack: number; ticket: unknown } });
    expect(updates.map((u) => [sends.indexOf(u.message.id), u.message.ack])).to.deep.equal([
      [0, 1],
      [1, 1],
      [2, 1],
      [0, 2],
      [1, 2],
      [2, 2],
    ]);
    expect(updates.every((u) => u.action === 'update' && u.message.ticket !== null)).to.equal(true);
    // Alone, a report is a batch of one.
    await app.conversations.applyChannelEvent.execute({
      type: 'MessageStatusChanged',
      messageId: sends[1]!,
      providerMessageId: 'p-1',
      status: 'read',
      ...base,
    });
    expect(calls).to.deep.equal([7, 1]);
  });

  it('a failed send ends failed with its reason', async () => {
    const { ports, app, connection } = await setup();
    const res = await app.conversations.sendApiMessage.execute({ connection, number: '5511988887777', body: 'hi' });
    await app.conversations.applyChannelEvent.execute({
      type: 'SessionMessageFailed',
      messageId: res.messageId,
      reason: 'ERR_SESSION_NOT_CONNECTED',
      companyId: 1,
      chatappId: connection.id,
      at: '2026-01-01T12:00:00Z',
    });
    expect((await ports.messages.findById(1, res.messageId))!).to.include({ status: 'failed', failureReason: 'ERR_SESSION_NOT_CONNECTED' });
  });

  it('session status changes update the connection and reach the operators', async () => {
    const { ports, app, connection } = await setup({ status: 'OPENING' });
    await app.conversations.applyChannelEvent.execute({
      type: 'SessionStatusChanged',
      companyId: 1,
      chatappId: connection.id,
      status: 'qrcode',
      qrcode: 'QR-DATA',
      at: '2026-01-01T12:00:00Z',
    });
    expect((await ports.connections.findById(1, connection.id))!).to.include({ status: 'qrcode', qrcode: 'QR-DATA' });
    expect(ports.realtime.events.at(-1)).to.deep.include({ entity: 'chatappSession' });
  });

  it('a token selects its connection; unknown tokens are refused', async () => {
    const { app, connection } = await setup();
    expect((await app.connections.authenticateConnection.execute('api-token-123')).id).to.equal(connection.id);
    expect(await app.connections.authenticateConnection.execute('other').catch((e) => e.code)).to.equal('ERR_INVALID_CONNECTION_TOKEN');
    expect(await app.connections.authenticateConnection.execute(undefined).catch((e) => e.code)).to.equal('ERR_INVALID_CONNECTION_TOKEN');
  });
});

describe('Sessions come back after a runtime restart (in-memory)', () => {
  it('a RuntimeOnline event restarts every connection that was not logged out', async () => {
    const { ports, app, connection } = await setup();
    const now = ports.clock.now();
    const loggedOut = await ports.connections.add({ ...connection, name: 'Off', status: 'DISCONNECTED', tokenDigest: null, createdAt: now, updatedAt: now });
    await app.conversations.applyChannelEvent.execute({ type: 'RuntimeOnline', runtimeId: 'r1', at: now.toISOString() });
    const starts = ports.outbox.entries.map((e) => e.payload as { type: string; action: string; chatappId: number });
    expect(starts.map((c) => [c.type, c.action, c.chatappId])).to.deep.equal([['SessionControl', 'start', connection.id]]);
    expect(starts.some((c) => c.chatappId === loggedOut.id)).to.equal(false);
  });
});

describe('Inbound shards', () => {
  it('keep a conversation on one shard and spread conversations over all of them', async () => {
    const { inboundShard, INBOUND_SHARDS } = await import('../../src/index.js');
    expect(inboundShard(3, '5511999990000')).to.equal(inboundShard(3, '5511999990000'));
    const seen = new Set(Array.from({ length: 400 }, (_, i) => inboundShard(3, `55119999${String(i).padStart(5, '0')}`)));
    expect([...seen].sort((a, b) => a - b)).to.deep.equal(Array.from({ length: INBOUND_SHARDS }, (_, i) => i));
  });
});
