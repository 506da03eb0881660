import { createHmac } from 'node:crypto';
import { RequestContext } from '@mikro-orm/core';
import { MikroOrmTickets } from '@servicedesk/adapters-persistence';
import { expect } from 'chai';
import { asSuper, client, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { startFakeGraph, type FakeGraph } from '../support/fake-graph.js';
import { eventually } from '../support/eventually.js';

const APP_SECRET = 'meta-app-secret-for-tests';
const VERIFY = 'verify-me-please';
const MICRO = 'microservice-shared-secret-0123456789';

function sign(body: string, secret = APP_SECRET) {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

function delivery(pageId: string, mid: string, text: string, sender = 'PSID-77') {
  return JSON.stringify({
    object: 'page',
    entry: [
      { id: pageId, time: 1767268800000, messaging: [{ sender: { id: sender }, recipient: { id: pageId }, timestamp: 1767268800000, message: { mid, text } }] },
    ],
  });
}

describe('Webhooks: Meta deliveries and the chat-application microservice', () => {
  let b: TestBackend;
  let graph: FakeGraph;
  before(async () => {
    graph = await startFakeGraph({ 'page-token': 'PAGE-1' });
    b = await startTestBackend({
      META_APP_SECRET: APP_SECRET,
      META_VERIFY_TOKEN: VERIFY,
      CHATAPP_MICROSERVICE_SECRET: MICRO,
      OUTBOX_RELAY_INTERVAL_MS: '100',
      META_GRAPH_URL: graph.url,
    });
  });
  after(async () => {
    await b.close();
    await graph.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  const tickets = () =>
    RequestContext.create(
      b.infra.db.orm.em,
      async () => (await new MikroOrmTickets(b.infra.db.orm).list({ companyId: 1, page: { offset: 0, limit: 50 } })).rows,
    );

  async function page() {
    const { api } = await asSuper(b);
    const res = await api.post('/socialnet/', {
      name: 'Loja no Messenger',
      provider: 'sandbox',
      externalId: 'PAGE-1',
      secrets: { pageAccessToken: 'page-token' },
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.id as number;
  }

  it("answers Meta's verification on / and /webhook/ only with the right token", async () => {
    for (const path of ['/', '/webhook/']) {
      const ok = await fetch(`${b.url}${path}?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`);
      expect(ok.status).to.equal(200);
      expect(await ok.text()).to.equal('1158201444');
      const wrong = await client(b.url).get(`${path}?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1`);
      expect(wrong.status).to.equal(403);
      expect(wrong.body).to.deep.equal({ error: 'ERR_WEBHOOK_VERIFICATION_FAILED' });
    }
  });

  it('stores a signed delivery for a known page as a ticket and message, once, even when Meta retries', async () => {
    await page();
    const body = delivery('PAGE-1', 'm_abc', 'Vocês entregam hoje?');
    for (let i = 0; i < 3; i++) {
      const res = await client(b.url).post('/webhook/', body, { 'x-hub-signature-256': sign(body) });
      expect(res.status).to.equal(200);
      expect(res.body).to.deep.equal({ received: true, accepted: 1 });
    }
    const rows = await eventually('the ticket of the delivery', async () => {
      const t = await tickets();
      return t.length > 0 && t;
    });
    expect(rows[0]).to.include({ lastMessage: 'Vocês entregam hoje?', unreadMessages: 1, status: 'pending' });
    // A later delivery of the same conversation is handled after the three copies: once it is in, they all were.
    const later = delivery('PAGE-1', 'm_later', 'E amanhã?');
    expect((await client(b.url).post('/webhook/', later, { 'x-hub-signature-256': sign(later) })).status).to.equal(200);
    await eventually('the later delivery', async () => (await tickets())[0]?.lastMessage === 'E amanhã?');
    expect(await tickets()).to.have.length(1);
    expect((await tickets())[0]).to.include({ unreadMessages: 2 });
  });

  it('refuses a bad or missing signature with 401 and stores nothing', async () => {
    await page();
    const body = delivery('PAGE-1', 'm_bad', 'forged');
    expect((await client(b.url).post('/', body, { 'x-hub-signature-256': sign(body, 'wrong-secret') })).status).to.equal(401);
    expect((await client(b.url).post('/webhook/', body)).status).to.equal(401);
    const tampered = await client(b.url).post('/webhook/', body.replace('forged', 'tampered'), { 'x-hub-signature-256': sign(body) });
    expect(tampered.status).to.equal(401);
    // A signed delivery sent after the refused ones is stored, and alone: nothing of theirs was kept.
    const signed = delivery('PAGE-1', 'm_good', 'genuine');
    expect((await client(b.url).post('/webhook/', signed, { 'x-hub-signature-256': sign(signed) })).status).to.equal(200);
    await eventually('the signed delivery', async () => (await tickets()).length > 0);
    expect((await tickets()).map((t) => t.lastMessage)).to.deep.equal(['genuine']);
  });

  it('answers 200 to deliveries for unknown pages and other objects, accepting nothing', async () => {
    const body = JSON.stringify({ object: 'user', entry: [] });
    expect((await client(b.url).post('/webhook/', body, { 'x-hub-signature-256': sign(body) })).body).to.deep.equal({ received: true, accepted: 0 });
    const other = delivery('UNKNOWN-PAGE', 'm_1', 'hi');
    expect((await client(b.url).post('/webhook/', other, { 'x-hub-signature-256': sign(other) })).body).to.deep.equal({ received: true, accepted: 0 });
  });

  it('the microservice webhook needs its shared secret and a known connection', async () => {
    const id = await page();
    const events = {
      chatappId: id,
      events: [{ type: 'InboundMessage', providerMessageId: 'ext-1', from: '5511955554444', senderName: 'Caio', body: 'Bom dia', isGroup: false }],
    };
    expect((await client(b.url).post('/api/chatapp-microservice/webhook', events)).status).to.equal(401);
    expect((await client(b.url).post('/api/chatapp-microservice/webhook', events, { 'x-webhook-secret': 'wrong' })).status).to.equal(401);
    expect((await client(b.url).post('/api/chatapp-microservice/webhook', { ...events, chatappId: 999 }, { 'x-webhook-secret': MICRO })).status).to.equal(404);
    expect(
      (await client(b.url).post('/api/chatapp-microservice/webhook', { chatappId: id, events: [{ type: 'Nope' }] }, { 'x-webhook-secret': MICRO })).status,
    ).to.equal(422);
    const ok = await client(b.url).post('/api/chatapp-microservice/webhook', events, { 'x-webhook-secret': MICRO });
    expect(ok.body).to.deep.equal({ received: true, accepted: 1 });
    const rows = await eventually('the ticket of the microservice event', async () => {
      const t = await tickets();
      return t.length > 0 && t;
    });
    expect(rows[0]!.lastMessage).to.equal('Bom dia');
  });
});
