import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import type { SessionControl } from '@servicedesk/core';
import { GraphConnector, PermanentSendError } from '../src/index.js';

/** A local stand-in for the Graph API's Send API. */
function fakeGraph() {
  const received: Array<{ path: string; auth: string | undefined; body: any }> = [];
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      const auth = req.headers.authorization;
      if (req.url?.startsWith('/v21.0/me?')) {
        res.writeHead(auth === 'Bearer good-token' ? 200 : 401, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(auth === 'Bearer good-token' ? { id: 'PAGE1' } : { error: { code: 190, message: 'Invalid OAuth access token' } }));
      }
      const body = JSON.parse(raw || '{}');
      received.push({ path: req.url ?? '', auth, body });
      if (body.recipient?.id === 'blocked') {
        res.writeHead(400, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ error: { code: 551, message: "This person isn't available" } }));
      }
      if (body.recipient?.id === 'flaky') {
        res.writeHead(503);
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ recipient_id: body.recipient?.id, message_id: `m_${received.length}` }));
    });
  }).listen(0, '127.0.0.1');
  return { server, received, url: () => `http://127.0.0.1:${(server.address() as { port: number }).port}/v21.0` };
}

const command = (token: string): SessionControl => ({
  type: 'SessionControl',
  action: 'start',
  companyId: 1,
  chatappId: 4,
  provider: 'messenger',
  secrets: { pageAccessToken: token },
  externalId: 'PAGE1',
});

describe('Graph connector (Messenger / Instagram Send API) against a fake Graph server', () => {
  const graph = fakeGraph();
  after(() => graph.server.close());
  const statuses: string[] = [];
  const listener = {
    status: (s: string) => {
      statuses.push(s);
    },
    inbound: async () => undefined,
    delivery: () => undefined,
    presence: () => undefined,
  };

  it('connects with a valid page token and sends text and attachments to the page', async () => {
    const connector = new GraphConnector({ baseUrl: graph.url() });
    const session = await connector.start(command('good-token'), listener);
    await new Promise((r) => setTimeout(r, 5));
    expect(statuses.at(-1)).to.equal('CONNECTED');
    expect(await session.send('PSID-1', { body: 'Olá' })).to.deep.equal({ providerMessageId: 'm_1' });
    await session.send('PSID-1', { body: '', media: { url: 'https://cdn.test/a.png', key: 'k', contentType: 'image/png', filename: 'a.png' } });
    await session.send('PSID-1', { body: 'Escolha', buttons: [{ id: 'a', text: 'Sim' }] });
    expect(graph.received.map((r) => [r.path, r.auth])).to.deep.equal([
      ['/v21.0/PAGE1/messages', 'Bearer good-token'],
      ['/v21.0/PAGE1/messages', 'Bearer good-token'],
      ['/v21.0/PAGE1/messages', 'Bearer good-token'],
    ]);
    expect(graph.received[0]!.body).to.deep.equal({ recipient: { id: 'PSID-1' }, messaging_type: 'RESPONSE', message: { text: 'Olá' } });
    expect(graph.received[1]!.body.message).to.deep.equal({ attachment: { type: 'image', payload: { url: 'https://cdn.test/a.png', is_reusable: true } } });
    expect(graph.received[2]!.body.message.text).to.equal('Escolha\n1. Sim');
  });

  it("a refused send is permanent with Graph's code; a 5xx is transient", async () => {
    const session = await new GraphConnector({ baseUrl: graph.url() }).start(command('good-token'), listener);
    const refused = await session.send('blocked', { body: 'x' }).catch((e) => e);
    expect(refused).to.be.instanceOf(PermanentSendError);
    expect(refused.reason).to.match(/^ERR_GRAPH_551/);
    const flaky = await session.send('flaky', { body: 'x' }).catch((e) => e);
    expect(flaky).to.not.be.instanceOf(PermanentSendError);
    expect(flaky.message).to.equal('graph 503');
  });

  it('reports DISCONNECTED with an invalid token, and then refuses sends', async () => {
    const session = await new GraphConnector({ baseUrl: graph.url() }).start(command('bad-token'), listener);
    await new Promise((r) => setTimeout(r, 5));
    expect(statuses.at(-1)).to.equal('DISCONNECTED');
    expect((await session.send('PSID-1', { body: 'x' }).catch((e) => e)).reason).to.equal('ERR_SESSION_NOT_CONNECTED');
  });
});
