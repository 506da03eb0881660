import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { GraphSocialAccounts } from '../src/index.js';

const code = (p: Promise<unknown>) => p.then(() => 'resolved', (e: { code?: string }) => e.code);

describe('GraphSocialAccounts: who a page access token belongs to, asked of the Graph API', () => {
  let server: http.Server;
  let base: string;
  const seen: Array<{ url: string; auth?: string }> = [];
  /** What the fake answers: status and body, by token. */
  const answers: Record<string, [number, unknown] | 'redirect' | 'huge' | 'silent'> = {
    'page-token': [200, { id: '1029384756', name: 'Loja' }],
    'ig-token': [200, { id: '1029384756', instagram_business_account: { id: '17841400000000000' } }],
    'expired': [400, { error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190, error_subcode: 463 } }],
    'user-token': [400, { error: { message: '(#100) Tried accessing nonexisting field (instagram_business_account) on node type (User)', type: 'OAuthException', code: 100 } }],
    'throttled': [400, { error: { message: '(#4) Application request limit reached', type: 'OAuthException', code: 4 } }],
    'down': [500, { error: { message: 'An unknown error has occurred.', type: 'OAuthException', code: 1 } }],
    'not-graph': [200, '<html>captive portal</html>'],
    'redirect': 'redirect',
    'huge': 'huge',
    'silent': 'silent',
  };

  before(async () => {
    server = http.createServer((req, res) => {
      const auth = req.headers.authorization;
      seen.push({ url: req.url ?? '', auth });
      const answer = answers[(auth ?? '').replace(/^Bearer /, '')] ?? [400, { error: { type: 'OAuthException', code: 190 } }];
      if (answer === 'silent') return;
      if (answer === 'redirect') { res.writeHead(302, { location: '/v21.0/me' }); res.end(); return; }
      if (answer === 'huge') { res.writeHead(200, { 'content-type': 'application/json' }); res.end(`{"id":"1","pad":"${'x'.repeat(100_000)}"}`); return; }
      res.writeHead(answer[0], { 'content-type': 'application/json' });
      res.end(typeof answer[1] === 'string' ? answer[1] : JSON.stringify(answer[1]));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
  });
  after(() => { server.closeAllConnections(); server.close(); });

  it('answers the page of a page token, with its Instagram account; the token travels as a header, not in the URL', async () => {
    const graph = new GraphSocialAccounts({ baseUrl: `${base}/` });
    expect(await graph.pageOfToken('page-token')).to.deep.equal({ pageId: '1029384756', instagramAccountId: null });
    expect(await graph.pageOfToken('ig-token')).to.deep.equal({ pageId: '1029384756', instagramAccountId: '17841400000000000' });
    expect(seen.at(-1)).to.deep.equal({ url: '/v21.0/me?fields=id,instagram_business_account', auth: 'Bearer ig-token' });
  });

  it('a token Meta refuses is no page (null); an empty token is not even sent', async () => {
    const graph = new GraphSocialAccounts({ baseUrl: base });
    expect(await graph.pageOfToken('expired')).to.equal(null);
    expect(await graph.pageOfToken('user-token')).to.equal(null);
    const before = seen.length;
    expect(await graph.pageOfToken('')).to.equal(null);
    expect(seen.length).to.equal(before);
  });

  it('throttling, a 5xx, a body that is not the Graph API\'s, a redirect, a huge answer, silence or no server: ERR_GRAPH_API_UNAVAILABLE', async () => {
    const graph = new GraphSocialAccounts({ baseUrl: base, timeoutMs: 300 });
    for (const token of ['throttled', 'down', 'not-graph', 'redirect', 'huge', 'silent']) {
      expect(await code(graph.pageOfToken(token)), token).to.equal('ERR_GRAPH_API_UNAVAILABLE');
    }
    expect(await code(new GraphSocialAccounts({ baseUrl: 'http://127.0.0.1:9/v21.0' }).pageOfToken('page-token'))).to.equal('ERR_GRAPH_API_UNAVAILABLE');
  });
});
