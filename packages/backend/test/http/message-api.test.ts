import { createServer, type Server } from 'node:http';
import { RequestContext } from '@mikro-orm/core';
import { MikroOrmMessages, MikroOrmTickets } from '@servicedesk/adapters-persistence';
import { expect } from 'chai';
import { asSuper, client, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201e2a4d1a60000000049454e44ae426082',
  'hex',
);
const TOKEN = 'integration-token-0123456789abcdef';

describe('Official message API, end to end through the channel runtime (sandbox)', () => {
  let b: TestBackend;
  let imageServer: Server;
  let imageUrl: string;
  before(async () => {
    b = await startTestBackend({ ALLOW_PRIVATE_URLS: 'true', OUTBOX_RELAY_INTERVAL_MS: '100' });
    imageServer = createServer((req, res) => {
      if (req.url === '/cat.png') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(PNG);
      } else if (req.url === '/page.html') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html>');
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise<void>((resolve) => imageServer.listen(0, '127.0.0.1', resolve));
    imageUrl = `http://127.0.0.1:${(imageServer.address() as { port: number }).port}`;
  });
  after(async () => {
    imageServer.close();
    await b.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const inDb = <T>(fn: () => Promise<T>) => RequestContext.create(b.infra.db.orm.em, fn);
  const messageById = (id: string) => inDb(() => new MikroOrmMessages(b.infra.db.orm).findById(1, id));

  async function connectedSandbox(extra: Record<string, unknown> = {}) {
    const { api } = await asSuper(b);
    const created = await api.post('/chatapp/', { name: 'Sandbox', provider: 'sandbox', token: TOKEN, greetingMessage: 'Olá! Em que posso ajudar?', ...extra });
    expect(created.status, JSON.stringify(created.body)).to.be.oneOf([200, 201]);
    const id = created.body.id as number;
    await eventually('the session to connect', async () => (await api.get(`/chatapp/${id}`)).body.status === 'CONNECTED');
    return { id, api };
  }

  it('accepts a text send durably, then the runtime sends it and the status moves to read', async () => {
    await connectedSandbox();
    const res = await client(b.url, TOKEN).post('/api/messages/send', {
      number: '5511999990000',
      body: 'Seu pedido saiu para entrega',
      userId: '',
      queueId: '',
      sendSignature: false,
      closeTicket: false,
    });
    expect(res.status).to.equal(200);
    expect(res.body).to.include({ status: 'SUCCESS' });
    expect(res.body.messageId).to.be.a('string');
    expect(res.body.ticketId).to.be.a('number');
    const read = await eventually('the message to be read', async () => {
      const m = await messageById(res.body.messageId);
      return m?.status === 'read' && m;
    });
    expect(read.providerMessageId).to.match(/^sandbox-/);
    expect(b.sandbox!.session(read.connectionId).sent.map((s) => [s.to, s.content.body])).to.deep.equal([['5511999990000', 'Seu pedido saiu para entrega']]);
  });

  it('refuses an unknown token with 401 and a malformed number with 422', async () => {
    await connectedSandbox();
    expect((await client(b.url, 'not-a-token').post('/api/messages/send', { number: '5511999990000', body: 'x' })).status).to.equal(401);
    expect((await client(b.url).post('/api/messages/send', { number: '5511999990000', body: 'x' })).status).to.equal(401);
    const bad = await client(b.url, TOKEN).post('/api/messages/send', { number: '+55 (11) 99999-0000', body: 'x' });
    expect(bad.status).to.equal(422);
    expect(bad.body).to.deep.equal({ error: 'ERR_INVALID_NUMBER' });
    expect((await client(b.url, TOKEN).post('/api/messages/send', '{"number":')).status).to.equal(400);
  });

  it('sends media from a multipart form, with a signature, and can close the ticket', async () => {
    await connectedSandbox();
    const form = new FormData();
    form.append('number', '5511999990000');
    form.append('body', 'Segue o comprovante');
    form.append('sendSignature', 'true');
    form.append('closeTicket', 'true');
    form.append('medias', new Blob([PNG], { type: 'image/png' }), 'comprovante.png');
    const res = await client(b.url, TOKEN).post('/api/messages/send', form);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const m = await eventually('the media message', async () => {
      const x = await messageById(res.body.messageId);
      return x?.status === 'read' && x;
    });
    expect(m.media).to.include({ contentType: 'image/png', filename: 'comprovante.png', size: PNG.length });
    expect(m.body).to.equal('*Sandbox:*\nSegue o comprovante');
    const ticket = await inDb(() => new MikroOrmTickets(b.infra.db.orm).findById(1, res.body.ticketId));
    expect(ticket!.status).to.equal('closed');
  });

  it('an Idempotency-Key makes a retry return the first result and send once', async () => {
    const { id } = await connectedSandbox();
    const api = client(b.url, TOKEN);
    const first = await api.post('/api/messages/send', { number: '5511999990000', body: 'once' }, { 'idempotency-key': 'order-42' });
    const second = await api.post('/api/messages/send', { number: '5511999990000', body: 'once' }, { 'idempotency-key': 'order-42' });
    expect(second.body).to.deep.equal(first.body);
    await eventually('the send', async () => (await messageById(first.body.messageId))?.status === 'read');
    // A send accepted after the two goes out after anything they caused: once it is there, a second 'once' cannot follow.
    const later = await api.post('/api/messages/send', { number: '5511999990000', body: 'later' });
    await eventually('the later send', async () => (await messageById(later.body.messageId))?.status === 'read');
    expect(b.sandbox!.session(id).sent.map((s) => s.content.body)).to.deep.equal(['once', 'later']);
  });

  it('sends buttons, lists and images by link; refuses private URLs unless allowed', async () => {
    const { id } = await connectedSandbox();
    const api = client(b.url, TOKEN);
    expect(
      (await api.post('/api/messages/send-button', { number: '5511999990000', body: 'Confirma?', buttons: [{ text: 'Sim' }, { text: 'Não' }] })).status,
    ).to.equal(200);
    expect(
      (
        await api.post('/api/messages/send-list', {
          number: '5511999990000',
          body: 'Escolha',
          buttonText: 'Opções',
          sections: [{ title: 'Frutas', rows: [{ title: 'Maçã' }] }],
        })
      ).status,
    ).to.equal(200);
    const link = await api.post('/api/messages/send/linkImage', { number: '5511999990000', url: `${imageUrl}/cat.png`, body: 'gato' });
    expect(link.status, JSON.stringify(link.body)).to.equal(200);
    expect((await api.post('/api/messages/send/linkImage', { number: '5511999990000', url: `${imageUrl}/page.html` })).body).to.deep.equal({
      error: 'ERR_FILE_TYPE_NOT_ALLOWED',
    });
    expect((await api.post('/api/messages/send-button', { number: '5511999990000', body: 'x', buttons: [] })).status).to.equal(422);
    await eventually('three sends', async () => b.sandbox!.session(id).sent.length === 3);
    const sent = b.sandbox!.session(id).sent;
    expect(sent[0]!.content.buttons!.map((x) => x.text)).to.deep.equal(['Sim', 'Não']);
    expect(sent[1]!.content.list!.sections[0]!.rows[0]!.title).to.equal('Maçã');
    expect(sent[2]!.content.media!.contentType).to.equal('image/png');
  });

  it('checks numbers through the connector', async () => {
    await connectedSandbox();
    const res = await client(b.url, TOKEN).post('/api/messages/checkNumber', { number: '551188887777' });
    expect(res.body).to.deep.equal({ number: '551188887777', exists: true, id: '5511988887777@sandbox' });
    expect((await client(b.url, TOKEN).post('/api/messages/checkNumber', { number: 'abc' })).status).to.equal(422);
  });

  it('an inbound message opens a pending ticket, is greeted once, and reaches the store and the namespace', async () => {
    const { id } = await connectedSandbox();
    for (let i = 0; i < 3; i++) b.sandbox!.inject(id, { from: '5511977776666', body: 'Oi, tudo bem?', providerMessageId: 'wamid-in-1', senderName: 'Bia' });
    const ticket = await eventually('the inbound ticket', async () => {
      const found = await inDb(async () => (await new MikroOrmTickets(b.infra.db.orm).list({ companyId: 1, page: { offset: 0, limit: 10 } })).rows);
      return found.length > 0 && found;
    });
    expect(ticket).to.have.length(1);
    expect(ticket[0]).to.include({ status: 'pending', lastMessage: 'Oi, tudo bem?', unreadMessages: 1 });
    await eventually('the greeting', async () => b.sandbox!.session(id).sent.some((s) => s.content.body === 'Olá! Em que posso ajudar?'));
    // The connection's inbound is handled in order: once a later message is in the ticket, the three copies are all handled.
    b.sandbox!.inject(id, { from: '5511977776666', body: 'Alô?', providerMessageId: 'wamid-in-2', senderName: 'Bia' });
    await eventually(
      'the later inbound message',
      async () => (await inDb(async () => (await new MikroOrmTickets(b.infra.db.orm).findById(1, ticket[0]!.id))?.lastMessage)) === 'Alô?',
    );
    // And a send accepted now goes out after any greeting those copies caused.
    const later = await client(b.url, TOKEN).post('/api/messages/send', { number: '5511977776666', body: 'Já te respondo' });
    await eventually('the later send', async () => (await messageById(later.body.messageId))?.status === 'read');
    expect(b.sandbox!.session(id).sent.filter((s) => s.content.body === 'Olá! Em que posso ajudar?')).to.have.length(1);
  });
});
