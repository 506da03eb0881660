import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import { asSuper, client, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { eventually } from '../support/eventually.js';

const APP_SECRET = 'meta-app-secret-flow';

describe('Messenger end to end: signed webhook in, operator reply out through the runtime to a fake Graph server', () => {
  let b: TestBackend;
  let graph: Server;
  const sent: Array<{ path: string; body: any; auth?: string }> = [];
  before(async () => {
    graph = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => {
        raw += c;
      });
      req.on('end', () => {
        if (req.url?.includes('/me?')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          return res.end('{"id":"PAGE-9"}');
        }
        sent.push({ path: req.url ?? '', body: JSON.parse(raw), auth: req.headers.authorization });
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ recipient_id: 'PSID-5', message_id: `m_out_${sent.length}` }));
      });
    });
    await new Promise<void>((r) => graph.listen(0, '127.0.0.1', r));
    b = await startTestBackend({
      META_APP_SECRET: APP_SECRET,
      META_GRAPH_URL: `http://127.0.0.1:${(graph.address() as { port: number }).port}/v21.0`,
      OUTBOX_RELAY_INTERVAL_MS: '100',
    });
  });
  after(async () => {
    await b.close();
    graph.close();
  });

  it('creates contact, pending ticket and message, and the reply ends sent at the Graph API', async () => {
    const { api } = await asSuper(b);
    const page = await api.post('/socialnet/', { name: 'Loja', channel: 'facebook', pageId: 'PAGE-9', pageAccessToken: 'page-token-9' });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    expect(page.body).to.include({ kind: 'socialnet', provider: 'messenger', externalId: 'PAGE-9' });
    expect(page.body).to.not.have.property('secrets');
    await eventually('the page to connect', async () => (await api.get(`/chatapp/${page.body.id}`)).body.status === 'CONNECTED');

    const delivery = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: 'PAGE-9',
          time: Date.now(),
          messaging: [{ sender: { id: 'PSID-5' }, recipient: { id: 'PAGE-9' }, timestamp: Date.now(), message: { mid: 'm_in_1', text: 'Tem em azul?' } }],
        },
      ],
    });
    const signature = `sha256=${createHmac('sha256', APP_SECRET).update(delivery).digest('hex')}`;
    expect((await client(b.url).post('/webhook/', delivery, { 'x-hub-signature-256': signature })).status).to.equal(200);

    const ticket = await eventually('the inbound ticket', async () => (await api.get('/tickets?status=pending')).body.tickets[0]);
    expect(ticket).to.include({ status: 'pending', lastMessage: 'Tem em azul?' });
    expect(ticket.contact).to.include({ number: 'PSID-5' });
    const conversation = await api.get(`/messages/${ticket.id}`);
    expect(conversation.body.messages.map((m: { body: string; fromMe: boolean }) => [m.body, m.fromMe])).to.deep.equal([['Tem em azul?', false]]);

    const reply = await api.post(`/messages/${ticket.id}`, { body: 'Temos sim!' });
    expect(reply.status, JSON.stringify(reply.body)).to.be.oneOf([200, 201]);
    const out = await eventually('the reply to be sent', async () => {
      const list = (await api.get(`/messages/${ticket.id}`)).body.messages as Array<{ body: string; ack: number; providerMessageId: string }>;
      const m = list.find((x) => x.body === 'Temos sim!');
      return m && m.ack >= 1 && m;
    });
    expect(out.ack).to.equal(1);
    expect(out.providerMessageId).to.match(/^m_out_/);
    expect(sent.map((s) => [s.path, s.auth, s.body.recipient.id, s.body.message.text])).to.deep.equal([
      ['/v21.0/PAGE-9/messages', 'Bearer page-token-9', 'PSID-5', 'Temos sim!'],
    ]);
  });
});
