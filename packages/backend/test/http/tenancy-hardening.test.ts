import { expect } from 'chai';
import { client, newCompanyWithAdmin, startTestBackend, type Reply, type TestBackend } from '../support/test-backend.js';
import { sandboxDesk } from '../support/sandbox-conversations.js';
import { startFakeGraph, type FakeGraph } from '../support/fake-graph.js';

const B_TOKEN = 'company-b-connection-token-0123456789';

/**
 * Company B, with its own valid token and rows, sends company A's ids in bodies and queries: every
 * attempt is refused with a 4xx, and neither A's rows nor B's change.
 */
describe("Tenancy hardening: another company's ids in a request are refused and write nothing", function () {
  this.timeout(60_000);
  let b: TestBackend;
  let graph: FakeGraph;
  before(async () => {
    graph = await startFakeGraph({ 'token-of-page-a': 'PAGE-A', 'token-of-page-b': 'PAGE-B' });
    b = await startTestBackend({ META_GRAPH_URL: graph.url, OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b.close();
    await graph.close();
  });
  beforeEach(async () => {
    await b.reset();
  });

  /** Company A (the seeded one) with a conversation, a queue, a tag, an integration and a menu; company B with its own. */
  async function twoCompanies() {
    const a = await sandboxDesk(b);
    const aTicket = await a.inbound('5511911110000', 'Olá, empresa A');
    const aContactId = aTicket.contact.id as number;
    const aMessageId = (await a.admin.get(`/messages/${aTicket.id}`)).body.messages[0].id as string;
    const aIntegration = (await a.admin.post('/queueIntegration', { name: 'A hook', type: 'webhook', url: 'https://hooks.example.com/a' })).body.id as number;
    const aQueue = (await a.admin.post('/queue', { name: 'A fila', color: '#112233', userIds: [a.ana.id] })).body.id as number;
    const aTag = (await a.admin.post('/tags', { name: 'A tag', color: '#445566' })).body.id as number;
    const aOption = (await a.admin.post('/queue-options', { queueId: aQueue, title: 'A option', option: '1' })).body.id as number;
    const aChatbot = (await a.admin.post('/chatbot', { queueId: aQueue, name: 'A bot', option: '2' })).body.id as number;
    for (const [what, id] of Object.entries({ aIntegration, aQueue, aTag, aOption, aChatbot })) expect(id, what).to.be.a('number');

    const bCompany = await newCompanyWithAdmin(b);
    const bApi = bCompany.api;
    const bConn = await bApi.post('/chatapp/', { name: 'B', provider: 'sandbox', token: B_TOKEN });
    expect(bConn.status, JSON.stringify(bConn.body)).to.equal(201);
    const bContact = (await bApi.post('/contacts', { name: 'Bo', number: '5511922220000' })).body.id as number;
    const bSpare = (await bApi.post('/contacts', { name: 'Bea', number: '5511922220001' })).body.id as number;
    const bTicket = await bApi.post('/tickets', { contactId: bContact, chatappId: bConn.body.id });
    expect(bTicket.status, JSON.stringify(bTicket.body)).to.equal(201);
    const bQueue = (await bApi.post('/queue', { name: 'B fila', color: '#778899' })).body.id as number;
    const bTag = (await bApi.post('/tags', { name: 'B tag', color: '#000000' })).body.id as number;
    expect(bQueue).to.be.a('number');
    return {
      a,
      aTicketId: aTicket.id as number,
      aContactId,
      aMessageId,
      aIntegration,
      aQueue,
      aTag,
      aOption,
      aChatbot,
      bApi,
      bConnId: bConn.body.id as number,
      bContact,
      bSpare,
      bTicketId: bTicket.body.id as number,
      bQueue,
      bTag,
    };
  }
  type World = Awaited<ReturnType<typeof twoCompanies>>;

  /** What A and B hold, as their admins read it. */
  async function snapshot(w: World) {
    const read = async (api: typeof w.bApi, url: string) => {
      const res = await api.get(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body)}`).to.equal(200);
      return res.body;
    };
    const a = w.a.admin;
    return {
      aTicket: await read(a, `/tickets/${w.aTicketId}`),
      aMessages: await read(a, `/messages/${w.aTicketId}`),
      aContact: await read(a, `/contacts/${w.aContactId}`),
      aTickets: await read(a, '/tickets?showAll=true'),
      aQueue: await read(a, `/queue/${w.aQueue}`),
      aTags: await read(a, '/tags'),
      aOptions: await read(a, `/queue-options?queueId=${w.aQueue}`),
      aChatbot: await read(a, `/chatbot/${w.aChatbot}`),
      aUsers: await read(a, '/users/list'),
      bTickets: await read(w.bApi, '/tickets?showAll=true'),
      bTicket: await read(w.bApi, `/tickets/${w.bTicketId}`),
      bContacts: await read(w.bApi, '/contacts'),
      bQueues: await read(w.bApi, '/queue'),
      bTags: await read(w.bApi, '/tags'),
      bConnections: await read(w.bApi, '/chatapp/'),
      bOptions: await read(w.bApi, `/queue-options?queueId=${w.bQueue}`),
      bChatbots: await read(w.bApi, `/chatbot?queueId=${w.bQueue}`),
    };
  }

  it("B using A's user, queue, contact, ticket, message, tag, integration, menu and connection ids gets a 4xx for each, and nothing changes", async () => {
    const w = await twoCompanies();
    const ana = w.a.ana.id;
    const api = w.bApi;
    const messageApi = client(b.url, B_TOKEN);
    // B's own message, to forward it to A's contact.
    const bMessage = await api.post(`/messages/${w.bTicketId}`, { body: 'mensagem de B' });
    expect(bMessage.status, JSON.stringify(bMessage.body)).to.be.oneOf([200, 201]);
    const bMessageId = (await api.get(`/messages/${w.bTicketId}`)).body.messages[0].id as string;

    const before = await snapshot(w);
    const attempts: Array<[string, () => Promise<Reply>]> = [
      ["send API with A's userId", () => messageApi.post('/api/messages/send', { number: '5511933330000', body: 'oi', userId: ana })],
      ["send API with A's queueId", () => messageApi.post('/api/messages/send', { number: '5511933330000', body: 'oi', queueId: w.aQueue })],
      ["new ticket for A's contact", () => api.post('/tickets', { contactId: w.aContactId, chatappId: w.bConnId })],
      ["new ticket on A's connection", () => api.post('/tickets', { contactId: w.bSpare, chatappId: w.a.connectionId })],
      ["new ticket for A's user", () => api.post('/tickets', { contactId: w.bSpare, chatappId: w.bConnId, userId: ana })],
      ["new ticket in A's queue", () => api.post('/tickets', { contactId: w.bSpare, chatappId: w.bConnId, queueId: w.aQueue })],
      ["ticket transferred to A's user", () => api.put(`/tickets/${w.bTicketId}`, { userId: ana })],
      ["ticket moved to A's queue", () => api.put(`/tickets/${w.bTicketId}`, { queueId: w.aQueue })],
      ["A's ticket updated", () => api.put(`/tickets/${w.aTicketId}`, { status: 'closed' })],
      ["LGPD answer on A's ticket", () => api.post('/lgpd-response', { ticketId: w.aTicketId, accepted: true })],
      ["queue with A's user", () => api.post('/queue', { name: 'Q1', color: '#000000', userIds: [ana] })],
      ["queue with A's integration", () => api.post('/queue', { name: 'Q2', color: '#000000', integrationId: w.aIntegration })],
      ["B's queue given A's user", () => api.put(`/queue/${w.bQueue}`, { userIds: [ana] })],
      ["B's queue given A's integration", () => api.put(`/queue/${w.bQueue}`, { integrationId: w.aIntegration })],
      ["option in A's queue", () => api.post('/queue-options', { queueId: w.aQueue, title: 'x', option: '9' })],
      ["option under A's option", () => api.post('/queue-options', { queueId: w.bQueue, parentId: w.aOption, title: 'x', option: '9' })],
      ["option forwarding to A's queue", () => api.post('/queue-options', { queueId: w.bQueue, title: 'x', option: '8', forwardQueueId: w.aQueue })],
      ["option forwarding to A's user", () => api.post('/queue-options', { queueId: w.bQueue, title: 'x', option: '7', forwardUserId: ana })],
      ["chatbot in A's queue", () => api.post('/chatbot', { queueId: w.aQueue, name: 'x', option: '9' })],
      ["chatbot under A's chatbot", () => api.post('/chatbot', { queueId: w.bQueue, chatbotId: w.aChatbot, name: 'x', option: '9' })],
      ["chatbot forwarding to A's queue", () => api.post('/chatbot', { queueId: w.bQueue, name: 'x', option: '8', forwardQueueId: w.aQueue })],
      ["chatbot forwarding to A's user", () => api.post('/chatbot', { queueId: w.bQueue, name: 'x', option: '7', forwardUserId: ana })],
      ["tag sync with A's tag on B's ticket", () => api.post('/tags/sync', { ticketId: w.bTicketId, tagIds: [w.aTag] })],
      ["tag sync on A's ticket", () => api.post('/tags/sync', { ticketId: w.aTicketId, tagIds: [w.bTag] })],
      ["tag sync on A's contact", () => api.post('/tags/sync', { contactId: w.aContactId, tagIds: [w.bTag] })],
      ["A's tag on B's ticket", () => api.put(`/ticket-tags/${w.bTicketId}/${w.aTag}`)],
      ["A's tag off A's contact", () => api.delete(`/tags-contacts/${w.aTag}/${w.aContactId}`)],
      ["B's contact in A's user's wallet", () => api.put(`/contact-wallet/${w.bContact}`, { userId: ana })],
      ["B's contact linked to A's user", () => api.put(`/contacts/${w.bContact}/link-user`, { userId: ana })],
      ["A's message forwarded to B's contact", () => api.post('/message/forward', { messageId: w.aMessageId, contactId: w.bSpare })],
      ["B's message forwarded to A's contact", () => api.post('/message/forward', { messageId: bMessageId, contactId: w.aContactId })],
      ["reply quoting A's message", () => api.post(`/messages/${w.bTicketId}`, { body: 'citando', quotedMsgId: w.aMessageId })],
      ["A's message edited", () => api.post(`/messages/edit/${w.aMessageId}`, { body: 'editada' })],
      ["A's message deleted", () => api.delete(`/messages/${w.aMessageId}`)],
      ["connection with A's queue", () => api.post('/chatapp/', { name: 'B2', provider: 'sandbox', queueIds: [w.aQueue] })],
      ["B's connection given A's queue", () => api.put(`/chatapp/${w.bConnId}`, { queueIds: [w.aQueue] })],
      ["A's connection edited", () => api.put(`/chatapp/${w.a.connectionId}`, { name: 'taken' })],
      ["address book of A's connection", () => api.post('/contacts/import', { connectionId: w.a.connectionId })],
      ["integration test of A's integration", () => api.post('/queueIntegration/testsession', { integrationId: w.aIntegration })],
      ["media of A's ticket", () => api.get(`/messages/media?ticketId=${w.aTicketId}`)],
      ["profile through A's connection", () => api.get(`/contacts/profile/5511911110000?connectionId=${w.a.connectionId}`)],
    ];
    const accepted: string[] = [];
    for (const [what, attempt] of attempts) {
      const res = await attempt();
      if (res.status < 400 || res.status >= 500) accepted.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
    }
    expect(accepted, 'attempts not refused with a 4xx').to.deep.equal([]);
    const after = await snapshot(w);
    expect(after).to.deep.equal(before);
  });

  it("the send API with A's userId answers 404 and assigns, creates and sends nothing", async () => {
    const w = await twoCompanies();
    const sends = w.a.sent().length;
    const res = await client(b.url, B_TOKEN).post('/api/messages/send', { number: '5511944440000', body: 'oi', userId: w.a.ana.id });
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ error: 'ERR_NO_USER_FOUND' });
    const bTickets = (await w.bApi.get('/tickets?showAll=true')).body.tickets as Array<{ id: number; userId: number | null }>;
    expect(bTickets.map((t) => t.id)).to.deep.equal([w.bTicketId]);
    expect(((await w.bApi.get('/contacts')).body.contacts as Array<{ number: string }>).map((c) => c.number)).to.not.include('5511944440000');
    expect((await w.a.admin.get('/tickets?showAll=true')).body.tickets as unknown[]).to.have.length(1);
    expect(w.a.sent()).to.have.length(sends);
    // B's own user is fine.
    const own = await client(b.url, B_TOKEN).post('/api/messages/send', { number: '5511944440000', body: 'oi' });
    expect(own.status, JSON.stringify(own.body)).to.equal(200);
  });

  it("a page is registered only with a token Meta says is the page's, and only once on the platform", async () => {
    const a = await newCompanyWithAdmin(b);
    const other = await newCompanyWithAdmin(b);
    const page = (api: typeof a.api, pageId: string, token: string, provider = 'messenger') =>
      api.post('/socialnet/', { name: 'Página', provider, externalId: pageId, secrets: { pageAccessToken: token } });

    // B squatting A's page: its own page's token, or a token Meta refuses, whatever the provider.
    expect((await page(other.api, 'PAGE-A', 'token-of-page-b')).body).to.deep.equal({ error: 'ERR_PAGE_NOT_OWNED' });
    const refused = await page(other.api, 'PAGE-A', 'guessed-token', 'sandbox');
    expect([refused.status, refused.body]).to.deep.equal([422, { error: 'ERR_PAGE_ACCESS_TOKEN_INVALID' }]);
    const squat = await other.api.post('/socialnet/', { name: 'Página', channel: 'facebook', pageId: 'PAGE-A', pageAccessToken: 'token-of-page-b' });
    expect([squat.status, squat.body]).to.deep.equal([422, { error: 'ERR_PAGE_NOT_OWNED' }]);
    expect((await other.api.get('/chatapp/')).body).to.deep.equal([]);

    const created = await page(a.api, 'PAGE-A', 'token-of-page-a');
    expect(created.status, JSON.stringify(created.body)).to.equal(201);
    // A second registration of the page, by the same company or another holding its token: 409.
    for (const api of [a.api, other.api]) {
      const again = await page(api, 'PAGE-A', 'token-of-page-a');
      expect([again.status, again.body]).to.deep.equal([409, { error: 'ERR_PAGE_IN_USE' }]);
    }
    // B's own page cannot be moved onto A's, nor A's keep its id with another page's token.
    const mine = (await page(other.api, 'PAGE-B', 'token-of-page-b')).body.id as number;
    expect((await other.api.put(`/chatapp/${mine}`, { externalId: 'PAGE-A' })).body).to.deep.equal({ error: 'ERR_PAGE_NOT_OWNED' });
    expect((await other.api.put(`/chatapp/${mine}`, { externalId: 'PAGE-A', secrets: { pageAccessToken: 'token-of-page-a' } })).body).to.deep.equal({
      error: 'ERR_PAGE_IN_USE',
    });
    expect((await a.api.put(`/chatapp/${created.body.id}`, { secrets: { pageAccessToken: 'token-of-page-b' } })).body).to.deep.equal({
      error: 'ERR_PAGE_NOT_OWNED',
    });
    expect((await other.api.get(`/chatapp/${mine}`)).body.externalId).to.equal('PAGE-B');
    expect((await a.api.get('/chatapp/')).body.map((c: { externalId: string }) => c.externalId)).to.deep.equal(['PAGE-A']);
  });

  it('answers 503 when the Graph API cannot tell, and registers nothing', async () => {
    const a = await newCompanyWithAdmin(b);
    await graph.close();
    try {
      const res = await a.api.post('/socialnet/', { name: 'Página', externalId: 'PAGE-A', secrets: { pageAccessToken: 'token-of-page-a' } });
      expect([res.status, res.body]).to.deep.equal([503, { error: 'ERR_GRAPH_API_UNAVAILABLE' }]);
      expect((await a.api.get('/chatapp/')).body).to.deep.equal([]);
    } finally {
      graph = await startFakeGraph({ 'token-of-page-a': 'PAGE-A', 'token-of-page-b': 'PAGE-B' });
    }
  });
});
