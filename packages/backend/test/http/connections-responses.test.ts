import { createHmac } from 'node:crypto';
import { routesWithoutResponseSchema } from '@servicedesk/adapters-http';
import { expect } from 'chai';
import { asSuper, client, startTestBackend, type TestBackend } from '../support/test-backend.js';
import { startFakeGraph, type FakeGraph } from '../support/fake-graph.js';

// Connections, webhooks, conversations and tickets: every route describes its answer, and the answers
// no other suite reaches with a success fit their schemas (the test backend validates each answer).
const APP_SECRET = 'meta-app-secret-for-tests';
const VERIFY = 'verify-me-please';

const sign = (body: string) => `sha256=${createHmac('sha256', APP_SECRET).update(body).digest('hex')}`;

/** The route groups of connections, conversations and tickets (the webhooks are tagged with invoices). */
const MINE = new Set(['Chat application, social network and sessions (connections)', 'Official message API', 'Tickets and messages']);
const WEBHOOK_PATHS = new Set(['/', '/webhook/']);

describe('HTTP: connection, conversation and ticket answers fit their response schemas', () => {
  let b: TestBackend;
  let graph: FakeGraph;
  before(async () => {
    graph = await startFakeGraph({ 'page-token': 'PAGE-9' });
    b = await startTestBackend({ META_APP_SECRET: APP_SECRET, META_VERIFY_TOKEN: VERIFY, META_GRAPH_URL: graph.url });
  });
  after(async () => {
    await b.close();
    await graph.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  it('declares a response schema (or 204) on every route of the groups', () => {
    const mine = b.http.routes.filter((r) => MINE.has(r.tag) || WEBHOOK_PATHS.has(r.path));
    expect(mine.length).to.be.greaterThan(40);
    expect(routesWithoutResponseSchema(mine)).to.deep.equal([]);
    for (const r of mine) expect(r.description, `${r.method} ${r.path}`).to.be.a('string').that.is.not.empty;
  });

  it("answers Meta's verification challenge as text/plain", async () => {
    const res = await fetch(`${b.url}/webhook/?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=1158201444`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    expect(await res.text()).to.equal('1158201444');
  });

  it('acknowledges a signed Meta delivery posted to / with a receipt', async () => {
    const { api } = await asSuper(b);
    const page = await api.post('/socialnet/', {
      name: 'Loja no Messenger',
      provider: 'sandbox',
      externalId: 'PAGE-9',
      secrets: { pageAccessToken: 'page-token' },
    });
    expect(page.status, JSON.stringify(page.body)).to.equal(201);
    const body = JSON.stringify({
      object: 'page',
      entry: [
        {
          id: 'PAGE-9',
          time: 1767268800000,
          messaging: [{ sender: { id: 'PSID-9' }, recipient: { id: 'PAGE-9' }, timestamp: 1767268800000, message: { mid: 'm_root', text: 'Oi' } }],
        },
      ],
    });
    const res = await client(b.url).post('/', body, { 'x-hub-signature-256': sign(body) });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ received: true, accepted: 1 });
  });
});
