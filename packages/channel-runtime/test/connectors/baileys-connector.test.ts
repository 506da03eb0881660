import { expect } from 'chai';
import type { SessionControl } from '@servicedesk/core';
import type { WAMessage } from 'baileys';
import { BaileysConnector, PermanentSendError, type ReconnectPolicy } from '../../src/index.js';
import { fakeSockets, MemoryAuthState, recordingListener, silentLogger, until, wait } from './fake-baileys-socket.js';

const command: SessionControl = { type: 'SessionControl', action: 'start', companyId: 1, chatappId: 7, provider: 'baileys', secrets: {}, externalId: null };

async function setup(reconnect: Partial<ReconnectPolicy> = { baseMs: 5, maxMs: 20, maxAttempts: 2 }, start: SessionControl = command) {
  const fakes = fakeSockets();
  const auth = new MemoryAuthState(7);
  const rec = recordingListener();
  const connector = new BaileysConnector({ makeSocket: fakes.makeSocket, authStore: () => auth, logger: silentLogger, reconnect });
  const session = await connector.start(start, rec.listener);
  return { ...fakes, auth, ...rec, connector, session };
}

async function connected() {
  const s = await setup();
  s.last().open();
  return s;
}

function message(partial: Partial<WAMessage> & { key: WAMessage['key'] }): WAMessage {
  return { messageTimestamp: 1_700_000_000, pushName: 'Bia', ...partial };
}

describe('BaileysConnector', () => {
  it('is the connector of the baileys provider and opens one socket on the stored session', async () => {
    const s = await setup();
    expect(s.connector.providers).to.deep.equal(['baileys']);
    expect(s.sockets).to.have.length(1);
    expect(s.last().config.auth.creds.noiseKey).to.have.property('public');
    expect(s.session.status()).to.equal('OPENING');
  });

  it('reports a QR code as the qrcode status, then CONNECTED when the socket opens', async () => {
    const s = await setup();
    s.last().qr('2@abc,def,ghi');
    expect(s.session.status()).to.equal('qrcode');
    s.last().open();
    expect(s.statuses).to.deep.equal([
      ['qrcode', '2@abc,def,ghi'],
      ['CONNECTED', null],
    ]);
    expect(s.session.status()).to.equal('CONNECTED');
  });

  describe('pairing by phone number', () => {
    const byPhone: SessionControl = { ...command, pairingPhoneNumber: '5511999990000' };

    it('asks for a pairing code once the socket is ready to pair, reports it instead of the QR codes, then CONNECTED', async () => {
      const s = await setup(undefined, byPhone);
      expect(s.last().pairingRequests).to.deep.equal([]);
      s.last().qr('2@first');
      await until(() => s.pairingCodes.length === 1);
      s.last().qr('2@second');
      s.last().open();
      expect(s.last().pairingRequests).to.deep.equal(['5511999990000']);
      expect(s.pairingCodes).to.deep.equal(['PAIR0000']);
      expect(s.statuses).to.deep.equal([
        ['qrcode', null],
        ['CONNECTED', null],
      ]);
    });

    it('asks again on the socket that replaces one closed before the phone entered the code', async () => {
      const s = await setup(undefined, byPhone);
      s.last().qr('2@first');
      await until(() => s.pairingCodes.length === 1);
      s.last().close(408);
      await until(() => s.sockets.length === 2);
      s.last().qr('2@again');
      await until(() => s.pairingCodes.length === 2);
      expect(s.pairingCodes).to.deep.equal(['PAIR0000', 'PAIR0001']);
      expect(s.sockets.map((socket) => socket.pairingRequests)).to.deep.equal([['5511999990000'], ['5511999990000']]);
    });

    it('shows the QR code when WhatsApp refuses the pairing code', async () => {
      const s = await setup(undefined, byPhone);
      s.last().pairingFailure = new Error('bad-request');
      s.last().qr('2@fallback');
      await until(() => s.statuses.length === 1);
      expect(s.statuses).to.deep.equal([['qrcode', '2@fallback']]);
      expect(s.pairingCodes).to.deep.equal([]);
    });

    it('ignores the number once the stored session is registered (nothing to pair)', async () => {
      const fakes = fakeSockets();
      const auth = new MemoryAuthState(7);
      const { state, saveCreds } = await auth.load();
      state.creds.registered = true;
      await saveCreds();
      const rec = recordingListener();
      const connector = new BaileysConnector({ makeSocket: fakes.makeSocket, authStore: () => auth, logger: silentLogger });
      await connector.start(byPhone, rec.listener);
      fakes.last().qr('2@registered');
      expect(fakes.last().pairingRequests).to.deep.equal([]);
      expect(rec.statuses).to.deep.equal([['qrcode', '2@registered']]);
    });
  });

  it('saves the credentials on creds.update', async () => {
    const s = await setup();
    s.last().emit('creds.update', { registered: true, me: { id: '5511999990000:3@s.whatsapp.net', name: 'Loja' } });
    await until(() => s.auth.saved.length === 1);
    expect(s.auth.saved[0]).to.include({ registered: true });
    expect(s.auth.saved[0]!.me).to.deep.equal({ id: '5511999990000:3@s.whatsapp.net', name: 'Loja' });
  });

  describe('inbound messages', () => {
    it('maps text, extended text, captions and button or list choices of notify upserts', async () => {
      const s = await connected();
      s.last().emit('messages.upsert', {
        type: 'notify',
        messages: [
          message({ key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'A1' }, message: { conversation: 'oi' } }),
          message({
            key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'A2' },
            message: { extendedTextMessage: { text: 'veja https://x.y' } },
          }),
          message({ key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'A3' }, message: { imageMessage: { caption: 'foto' } } }),
          message({ key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'A4' }, message: { videoMessage: { caption: 'vídeo' } } }),
          message({
            key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'A5' },
            message: { documentWithCaptionMessage: { message: { documentMessage: { caption: 'nota' } } } },
          }),
          message({
            key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'A6' },
            message: { buttonsResponseMessage: { selectedButtonId: 'b2', selectedDisplayText: 'Suporte' } },
          }),
          message({
            key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'A7' },
            message: { listResponseMessage: { singleSelectReply: { selectedRowId: 'row-9' } } },
          }),
          message({
            key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'A8' },
            message: { ephemeralMessage: { message: { conversation: 'some' } } },
          }),
        ],
      });
      expect(s.inbound.map((m) => [m.providerMessageId, m.body])).to.deep.equal([
        ['A1', 'oi'],
        ['A2', 'veja https://x.y'],
        ['A3', 'foto'],
        ['A4', 'vídeo'],
        ['A5', 'nota'],
        ['A6', 'Suporte'],
        ['A7', 'row-9'],
        ['A8', 'some'],
      ]);
      expect(s.inbound[0]).to.deep.equal({
        providerMessageId: 'A1',
        from: '5511988887777',
        senderName: 'Bia',
        body: 'oi',
        isGroup: false,
        at: new Date(1_700_000_000_000),
      });
    });

    it('maps a group message to the group, named by its sender', async () => {
      const s = await connected();
      s.last().emit('messages.upsert', {
        type: 'notify',
        messages: [
          message({
            key: { remoteJid: '120363040000000000@g.us', participant: '5511977776666@s.whatsapp.net', fromMe: false, id: 'G1' },
            pushName: 'Caio',
            message: { conversation: 'bom dia' },
          }),
        ],
      });
      expect(s.inbound).to.deep.equal([
        {
          providerMessageId: 'G1',
          from: '120363040000000000',
          senderName: 'Caio',
          body: 'bom dia',
          isGroup: true,
          at: new Date(1_700_000_000_000),
        },
      ]);
    });

    it('takes the phone number when Baileys addresses the contact by LID', async () => {
      const s = await connected();
      s.last().emit('messages.upsert', {
        type: 'notify',
        messages: [
          message({
            key: { remoteJid: '123456789012345@lid', remoteJidAlt: '5511966665555@s.whatsapp.net', fromMe: false, id: 'L1' },
            message: { conversation: 'oi' },
          }),
        ],
      });
      expect(s.inbound.map((m) => m.from)).to.deep.equal(['5511966665555']);
    });

    it('skips our own messages, history appends, status broadcasts and messages without text', async () => {
      const s = await connected();
      s.last().emit('messages.upsert', {
        type: 'notify',
        messages: [
          message({ key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: 'M1' }, message: { conversation: 'from the phone' } }),
          message({
            key: { remoteJid: 'status@broadcast', participant: '5511988887777@s.whatsapp.net', fromMe: false, id: 'S1' },
            message: { conversation: 'story' },
          }),
          message({ key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'P1' }, message: { imageMessage: { mimetype: 'image/jpeg' } } }),
          message({ key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'R1' }, message: { reactionMessage: { text: '👍' } } }),
        ],
      });
      s.last().emit('messages.upsert', {
        type: 'append',
        messages: [message({ key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'H1' }, message: { conversation: 'old' } })],
      });
      expect(s.inbound).to.deep.equal([]);
    });
  });

  describe("the contact's typing", () => {
    const text = (remoteJid: string, id: string, extra: Partial<WAMessage['key']> = {}) =>
      message({ key: { remoteJid, fromMe: false, id, ...extra }, message: { conversation: 'oi' } });

    it("asks for a contact's presence once they write (once per contact), and reports composing, recording and paused", async () => {
      const s = await connected();
      s.last().emit('messages.upsert', { type: 'notify', messages: [text('5511988887777@s.whatsapp.net', 'T1'), text('5511988887777@s.whatsapp.net', 'T2')] });
      expect(s.last().presenceSubscriptions).to.deep.equal(['5511988887777@s.whatsapp.net']);
      for (const p of ['composing', 'available', 'recording', 'paused', 'unavailable'] as const) s.last().presence('5511988887777@s.whatsapp.net', p);
      expect(s.presences).to.deep.equal([
        ['5511988887777', 'composing'],
        ['5511988887777', 'recording'],
        ['5511988887777', 'paused'],
        ['5511988887777', 'paused'],
      ]);
    });

    it('reports nothing of contacts whose conversation is not active, nor of groups, and asks again on a new socket', async () => {
      const s = await connected();
      s.last().presence('5511900001111@s.whatsapp.net', 'composing');
      s.last().emit('messages.upsert', {
        type: 'notify',
        messages: [text('120363000000000001@g.us', 'G1', { participant: '5511900002222@s.whatsapp.net' })],
      });
      s.last().presence('120363000000000001@g.us', 'composing', '5511900002222@s.whatsapp.net');
      expect(s.last().presenceSubscriptions).to.deep.equal([]);
      expect(s.presences).to.deep.equal([]);

      // A contact addressed by LID: their presence comes under the LID, reported with their number.
      s.last().emit('messages.upsert', { type: 'notify', messages: [text('88887777@lid', 'L1', { remoteJidAlt: '5511900003333@s.whatsapp.net' })] });
      s.last().presence('88887777@lid', 'composing');
      expect(s.presences).to.deep.equal([['5511900003333', 'composing']]);

      s.last().close(500);
      await until(() => s.sockets.length === 2);
      s.last().open();
      s.last().emit('messages.upsert', { type: 'notify', messages: [text('88887777@lid', 'L2', { remoteJidAlt: '5511900003333@s.whatsapp.net' })] });
      expect(s.sockets.map((socket) => socket.presenceSubscriptions)).to.deep.equal([['88887777@lid'], ['88887777@lid']]);
    });

    it('asks for the presence of a contact the session writes to', async () => {
      const s = await connected();
      await s.session.send('5511977776666', { body: 'Olá' });
      await s.session.send('5511977776666', { body: 'Tudo bem?' });
      expect(s.last().presenceSubscriptions).to.deep.equal(['5511977776666@s.whatsapp.net']);
      s.last().presence('5511977776666@s.whatsapp.net', 'composing');
      expect(s.presences).to.deep.equal([['5511977776666', 'composing']]);
    });
  });

  describe('delivery statuses', () => {
    it('maps the status updates of our messages forward: server ack, delivery ack, read, played', async () => {
      const s = await connected();
      const key = (id: string, fromMe = true) => ({ remoteJid: '5511988887777@s.whatsapp.net', fromMe, id });
      s.last().emit('messages.update', [
        { key: key('X1'), update: { status: 2 } },
        { key: key('X1'), update: { status: 3 } },
        { key: key('X1'), update: { status: 4 } },
        { key: key('X2'), update: { status: 5 } },
        { key: key('X3'), update: { status: 1 } },
        { key: key('X4', false), update: { status: 4 } },
        { key: key('X5'), update: { starred: true } },
      ]);
      expect(s.deliveries).to.deep.equal([
        ['X1', 'sent'],
        ['X1', 'delivered'],
        ['X1', 'read'],
        ['X2', 'played'],
      ]);
    });

    it('maps per-recipient receipts (groups) by their furthest timestamp', async () => {
      const s = await connected();
      const key = { remoteJid: '120363040000000000@g.us', fromMe: true, id: 'G9' };
      s.last().emit('message-receipt.update', [
        { key, receipt: { userJid: '5511977776666@s.whatsapp.net', receiptTimestamp: 1_700_000_001 } },
        { key, receipt: { userJid: '5511977776666@s.whatsapp.net', readTimestamp: 1_700_000_002 } },
        { key: { ...key, fromMe: false }, receipt: { userJid: '5511977776666@s.whatsapp.net', readTimestamp: 1_700_000_003 } },
      ]);
      expect(s.deliveries).to.deep.equal([
        ['G9', 'delivered'],
        ['G9', 'read'],
      ]);
    });
  });

  describe('sending', () => {
    it("sends text to the number's jid and answers the key id", async () => {
      const s = await connected();
      const result = await s.session.send('+55 (11) 98888-7777', { body: 'olá' });
      await s.session.send('120363040000000000@g.us', { body: 'grupo' });
      expect(result).to.deep.equal({ providerMessageId: '3EB0F01' });
      expect(s.last().sent).to.deep.equal([
        { jid: '5511988887777@s.whatsapp.net', content: { text: 'olá' } },
        { jid: '120363040000000000@g.us', content: { text: 'grupo' } },
      ]);
    });

    it('gives a send keyed by our message id a WhatsApp id derived from it, so a repeat carries the same id', async () => {
      const s = await connected();
      const key = '0b6f2d2e-4c1a-4b8e-9f3a-1d2c3b4a5f60';
      const first = await s.session.send('5511988887777', { body: 'uma vez' }, { idempotencyKey: key });
      const again = await s.session.send('5511988887777', { body: 'uma vez' }, { idempotencyKey: key });
      expect(first.providerMessageId).to.equal('3EB00B6F2D2E4C1A4B8E9F3A');
      expect(again).to.deep.equal(first);
      expect(s.last().sent.map((m) => m.messageId)).to.deep.equal([first.providerMessageId, first.providerMessageId]);
    });

    it('edits and revokes a sent message by its key', async () => {
      const s = await connected();
      await s.session.edit!('5511988887777', '3EB0AAA', 'corrigido');
      await s.session.revoke!('5511988887777', '3EB0AAA');
      const key = { remoteJid: '5511988887777@s.whatsapp.net', fromMe: true, id: '3EB0AAA' };
      expect(s.last().sent.map((m) => m.content)).to.deep.equal([{ text: 'corrigido', edit: key }, { delete: key }]);
    });

    it('sends media by URL as image, video, audio or document by content type', async () => {
      const s = await connected();
      const media = (contentType: string, filename: string) => ({ url: `https://files.example/${filename}`, key: `k/${filename}`, contentType, filename });
      await s.session.send('5511988887777', { body: 'a foto', media: media('image/png', 'a.png') });
      await s.session.send('5511988887777', { body: '', media: media('video/mp4', 'v.mp4') });
      await s.session.send('5511988887777', { body: 'ouça', media: media('audio/ogg; codecs=opus', 'n.ogg') });
      await s.session.send('5511988887777', { body: 'o contrato', media: media('application/pdf', 'contrato.pdf') });
      expect(s.last().sent.map((m) => m.content)).to.deep.equal([
        { image: { url: 'https://files.example/a.png' }, caption: 'a foto', mimetype: 'image/png' },
        { video: { url: 'https://files.example/v.mp4' }, caption: undefined, mimetype: 'video/mp4' },
        { audio: { url: 'https://files.example/n.ogg' }, mimetype: 'audio/ogg; codecs=opus' },
        { text: 'ouça' },
        { document: { url: 'https://files.example/contrato.pdf' }, mimetype: 'application/pdf', fileName: 'contrato.pdf', caption: 'o contrato' },
      ]);
    });

    it('sends buttons and lists as numbered text', async () => {
      const s = await connected();
      await s.session.send('5511988887777', {
        body: 'Escolha:',
        buttons: [
          { id: 'b1', text: 'Vendas' },
          { id: 'b2', text: 'Suporte' },
        ],
      });
      await s.session.send('5511988887777', {
        body: 'Menu',
        list: {
          title: 'Setores',
          buttonText: 'Abrir',
          sections: [
            {
              title: 'Loja',
              rows: [
                { id: 'r1', title: 'Plantas', description: 'mudas' },
                { id: 'r2', title: 'Vasos' },
              ],
            },
          ],
        },
      });
      expect(s.last().sent.map((m) => m.content)).to.deep.equal([
        { text: 'Escolha:\n\n1. Vendas\n2. Suporte' },
        { text: 'Menu\n\nSetores\n\n*Loja*\n1. Plantas - mudas\n2. Vasos' },
      ]);
    });

    it("refuses for good while not connected, and rethrows the socket's errors as transient", async () => {
      const s = await setup();
      const refused = await s.session.send('5511988887777', { body: 'x' }).catch((e: unknown) => e);
      expect(refused).to.be.instanceOf(PermanentSendError).and.to.have.property('reason', 'ERR_SESSION_NOT_CONNECTED');
      s.last().open();
      s.last().failNext.push(new Error('Timed Out'));
      const transient = await s.session.send('5511988887777', { body: 'x' }).catch((e: unknown) => e);
      expect(transient).to.be.instanceOf(Error).and.not.to.be.instanceOf(PermanentSendError);
      expect((transient as Error).message).to.equal('Timed Out');
    });
  });

  it('checks numbers through onWhatsApp', async () => {
    const s = await connected();
    s.last().registered.add('5511988887777');
    expect(await s.session.checkNumber('55 11 98888-7777')).to.deep.equal({ exists: true, id: '5511988887777@s.whatsapp.net' });
    expect(await s.session.checkNumber('5511900000000')).to.deep.equal({ exists: false, id: null });
  });

  describe('disconnections', () => {
    it('reconnects after a transient close with backoff, on a new socket, and gives up after the attempts', async () => {
      const s = await connected();
      const first = s.last();
      first.close(428);
      expect(s.session.status()).to.equal('OPENING');
      expect(s.sockets).to.have.length(1);
      expect(first.listeners()).to.equal(0);
      await until(() => s.sockets.length === 2);
      // The new socket opens: the attempts start over.
      s.last().open();
      s.last().close(408);
      await until(() => s.sockets.length === 3);
      s.last().close(408);
      await until(() => s.sockets.length === 4);
      s.last().close(408);
      await wait(60);
      expect(s.sockets).to.have.length(4);
      expect(s.statuses.map(([status]) => status)).to.deep.equal(['CONNECTED', 'OPENING', 'CONNECTED', 'OPENING', 'OPENING', 'DISCONNECTED']);
      expect(s.session.status()).to.equal('DISCONNECTED');
      expect(s.auth.cleared).to.equal(0);
    });

    it('waits longer on each attempt, up to the maximum', async () => {
      const s = await setup({ baseMs: 30, maxMs: 50, maxAttempts: 5 });
      const started = Date.now();
      s.last().close(503);
      await until(() => s.sockets.length === 2);
      const first = Date.now() - started;
      s.last().close(503);
      await until(() => s.sockets.length === 3);
      const second = Date.now() - started - first;
      expect(first).to.be.at.least(25);
      expect(second).to.be.at.least(45);
    });

    it('reconnects at once when Baileys asks for a restart (after pairing)', async () => {
      const s = await setup({ baseMs: 10_000, maxMs: 10_000, maxAttempts: 1 });
      s.last().qr('2@qr');
      s.last().close(515);
      await until(() => s.sockets.length === 2);
      s.last().open();
      expect(s.statuses.map(([status]) => status)).to.deep.equal(['qrcode', 'CONNECTED']);
    });

    it('forgets the session and reports DISCONNECTED when logged out from the phone', async () => {
      const s = await connected();
      s.last().close(401);
      await until(() => s.statuses.length === 2);
      expect(s.statuses).to.deep.equal([
        ['CONNECTED', null],
        ['DISCONNECTED', null],
      ]);
      expect(s.auth.cleared).to.equal(1);
      await wait(30);
      expect(s.sockets).to.have.length(1);
    });

    it('ignores the events of a socket it has left behind', async () => {
      const s = await connected();
      const old = s.last();
      old.close(428);
      await until(() => s.sockets.length === 2);
      old.emit('messages.upsert', {
        type: 'notify',
        messages: [message({ key: { remoteJid: '5511988887777@s.whatsapp.net', fromMe: false, id: 'Z' }, message: { conversation: 'ghost' } })],
      });
      old.open();
      expect(s.inbound).to.deep.equal([]);
      expect(s.session.status()).to.equal('OPENING');
    });
  });

  describe('stopping', () => {
    it('logs out, forgets the session and does not reconnect', async () => {
      const s = await connected();
      await s.session.stop({ logout: true });
      await wait(30);
      expect(s.last().loggedOut).to.equal(true);
      expect(s.auth.cleared).to.equal(1);
      expect(s.sockets).to.have.length(1);
      expect(s.session.status()).to.equal('DISCONNECTED');
      expect(s.statuses.at(-1)).to.deep.equal(['DISCONNECTED', null]);
    });

    it('without logout ends the socket, keeps the session and does not reconnect', async () => {
      const s = await connected();
      await s.session.stop({ logout: false });
      await wait(30);
      expect(s.last().ended).to.deep.equal([undefined]);
      expect(s.last().loggedOut).to.equal(false);
      expect(s.auth.cleared).to.equal(0);
      expect(s.sockets).to.have.length(1);
    });

    it('cancels a pending reconnection', async () => {
      const s = await connected();
      s.last().close(428);
      await s.session.stop({ logout: false });
      await wait(40);
      expect(s.sockets).to.have.length(1);
    });
  });
});
