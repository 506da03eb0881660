import { expect } from 'chai';
import { InProcessBroker, SUBJECTS, type BrokerEnvelope, type ChannelEvent, type SessionControl, type SessionSendMessage } from '@servicedesk/core';
import type { Database } from '@servicedesk/adapters-persistence';
import { openPgliteDatabase } from '@servicedesk/adapters-persistence/testing';
import { BaileysConnector, CHANNEL_DATABASE_OPTIONS, ChannelRuntime, databaseAuthStore } from '../../src/index.js';
import { fakeSockets, silentLogger, until } from './fake-baileys-socket.js';

describe('Channel runtime with the Baileys connector (fake socket, auth state in PGlite)', () => {
  let db: Database;
  before(async () => {
    db = await openPgliteDatabase(CHANNEL_DATABASE_OPTIONS);
    await db.orm.em.getConnection().execute('delete from channel.auth_state where connection_id = 8');
  });
  after(async () => {
    await db.close();
  });

  it('starts a session, reports its QR code and connection, sends, and reports the send and its receipt', async () => {
    const broker = new InProcessBroker();
    const fakes = fakeSockets();
    const connector = new BaileysConnector({
      makeSocket: fakes.makeSocket,
      authStore: databaseAuthStore(db),
      logger: silentLogger,
      reconnect: { baseMs: 5, maxMs: 5, maxAttempts: 1 },
    });
    const runtime = new ChannelRuntime({ broker, connectors: [connector], logger: silentLogger, retryDelayMs: 5, maxSendAttempts: 2 });
    await runtime.start();
    const events: ChannelEvent[] = [];
    await broker.subscribe('test-events', 'evt.>', async (e: BrokerEnvelope) => {
      const event = e.payload as ChannelEvent;
      if (event.type !== 'RuntimeOnline') events.push(event);
    });
    const settle = async () => {
      for (let i = 0; i < 5; i++) {
        await broker.idle();
        await new Promise((r) => setTimeout(r, 5));
      }
    };
    const control: SessionControl = { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 8, provider: 'baileys', secrets: {}, externalId: null };
    const send: SessionSendMessage = {
      type: 'SessionSendMessage',
      messageId: 'm1',
      companyId: 1,
      chatappId: 8,
      ticketId: 3,
      to: '5511988887777',
      content: { body: 'olá' },
    };

    await broker.publish({ id: 'c1', subject: SUBJECTS.sessionControl(8), payload: control });
    await until(() => fakes.sockets.length === 1);
    fakes.last().qr('2@qr-code');
    fakes.last().emit('creds.update', { registered: true, me: { id: '5511999990000:2@s.whatsapp.net' } });
    fakes.last().open();
    await settle();
    await broker.publish({ id: 'm1', subject: SUBJECTS.sessionSend(8), payload: send });
    await settle();
    const sent = events.find((e) => e.type === 'SessionMessageSent');
    expect(sent).to.include({ messageId: 'm1', chatappId: 8, providerMessageId: '3EB01' });
    fakes.last().emit('messages.update', [{ key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: '3EB01' }, update: { status: 3 } }]);
    await settle();

    const summary = events.map((e) =>
      e.type === 'SessionStatusChanged'
        ? `${e.status}${e.qrcode ? `:${e.qrcode}` : ''}`
        : e.type === 'MessageStatusChanged'
          ? `${e.status}:${e.messageId}`
          : e.type,
    );
    expect(summary).to.deep.equal(['OPENING', 'qrcode:2@qr-code', 'CONNECTED', 'SessionMessageSent', 'delivered:m1']);
    expect(fakes.last().sent).to.deep.equal([{ jid: '5511988887777@s.whatsapp.net', content: { text: 'olá' }, messageId: '3EB01' }]);
    const [creds] = await db.orm.em
      .getConnection()
      .execute<Array<{ registered: boolean }>>(
        "select (value->>'registered')::boolean as registered from channel.auth_state where connection_id = 8 and key = 'creds'",
      );
    expect(creds).to.deep.equal({ registered: true });

    await broker.publish({ id: 'c2', subject: SUBJECTS.sessionControl(8), payload: { ...control, action: 'logout' } });
    await settle();
    expect(fakes.last().loggedOut).to.equal(true);
    const left = await db.orm.em.getConnection().execute('select key from channel.auth_state where connection_id = 8');
    expect(left).to.deep.equal([]);
    await runtime.stop();
  });
});
