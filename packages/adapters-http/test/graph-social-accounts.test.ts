import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { GraphSocialAccounts } from '../src/index.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

describe('GraphSocialAccounts: who a page access token belongs to, asked of the Graph API', () => {
  let server: http.Server;
  let base: string;
  const seen: Array<{ url: string; auth?: string }> = [];
  /** What the fake answers: status and body, by token. */
  const answers: Record<string, [number, unknown] | 'redirect' | 'huge' | 'silent'> = {
    'page-token': [200, { id: '1029384756', name: 'Loja' }],
    'ig-token': [200, { id: '1029384756', instagram_business_account: { id: '17841400000000000' } }],
    expired: [400, { error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190, error_subcode: 463 } }],
    'user-token': [
      400,
      { error: { message: '(#100) Tried accessing nonexisting field (instagram_business_account) on node type (User)', type: 'OAuthException', code: 100 } },
    ],
    throttled: [400, { error: { message: '(#4) Application request limit reached', type: 'OAuthException', code: 4 } }],
    down: [500, { error: { message: 'An unknown error has occurred.', type: 'OAuthException', code: 1 } }],
    'not-graph': [200, '<html>captive portal</html>'],
    redirect: 'redirect',
    huge: 'huge',
    silent: 'silent',
  };

  before(async () => {
    server = http.createServer((req, res) => {
      const auth = req.headers.authorization;
      seen.push({ url: req.url ?? '', auth });
      const answer = answers[(auth ?? '').replace(/^Bearer /, '')] ?? [400, { error: { type: 'OAuthException', code: 190 } }];
      if (answer === 'silent') return;
      if (answer === 'redirect') {
        res.writeHead(302, { location: '/v21.0/me' });
        res.end();
        return;
      }
      if (answer === 'huge') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"id":"1","pad":"${'x'.repeat(100_000)}"}`);
        return;
      }
      res.writeHead(answer[0], { 'content-type': 'application/json' });
      res.end(typeof answer[1] === 'string' ? answer[1] : JSON.stringify(answer[1]));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

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

  it("throttling, a 5xx, a body that is not the Graph API's, a redirect, a huge answer, silence or no server: ERR_GRAPH_API_UNAVAILABLE", async () => {
    const graph = new GraphSocialAccounts({ baseUrl: base, timeoutMs: 300 });
    for (const token of ['throttled', 'down', 'not-graph', 'redirect', 'huge', 'silent']) {
      expect(await code(graph.pageOfToken(token)), token).to.equal('ERR_GRAPH_API_UNAVAILABLE');
    }
    expect(await code(new GraphSocialAccounts({ baseUrl: 'http://127.0.0.1:9/v21.0' }).pageOfToken('page-token'))).to.equal('ERR_GRAPH_API_UNAVAILABLE');
  });
});

describe('GraphSocialAccounts: whether an access token controls a business number of an account, asked of the Cloud API', () => {
  let server: http.Server;
  let base: string;
  const seen: Array<{ url: string; auth?: string }> = [];
  /** What Meta documents: a phone number node, and the account's `phone_numbers` edge (paged by cursors). */
  const phone = (id: string) => ({
    verified_name: 'Loja',
    code_verification_status: 'VERIFIED',
    display_phone_number: '+55 11 4000-0000',
    quality_rating: 'GREEN',
    id,
  });
  const unsupported = (id: string) =>
    [
      400,
      {
        error: {
          message: `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
          type: 'GraphMethodException',
          code: 100,
          error_subcode: 33,
          fbtrace_id: 'A1',
        },
      },
    ] as const;
  /** token → path (without the version and query) → answer. */
  const answers: Record<string, Record<string, readonly [number, unknown]>> = {
    owner: {
      '/1065': [200, phone('1065')],
      '/2065': [200, phone('2065')],
      '/W1/phone_numbers': [200, { data: [phone('1064'), phone('1065')], paging: { cursors: { before: 'QVFIUa', after: 'QVFIUb' } } }],
      '/W2/phone_numbers': [
        200,
        {
          data: [phone('2064')],
          paging: { cursors: { before: 'QVFIUa', after: 'QVFIUb' }, next: 'https://graph.facebook.com/v21.0/W2/phone_numbers?after=QVFIUb' },
        },
      ],
      '/W2/phone_numbers?after=QVFIUb': [200, { data: [phone('2065')], paging: { cursors: { before: 'QVFIUb', after: 'QVFIUc' } } }],
    },
    other: { '/1065': unsupported('1065'), '/9065': [200, phone('9065')], '/W1/phone_numbers': unsupported('W1') },
    expired: {
      '*': [400, { error: { message: 'Error validating access token: Session has expired', type: 'OAuthException', code: 190, error_subcode: 463 } }],
    },
    throttled: { '*': [400, { error: { message: '(#80007) Rate limit hit for WhatsApp Business Account', type: 'OAuthException', code: 80007 } }] },
    down: { '*': [503, { error: { message: 'Service temporarily unavailable', type: 'OAuthException', is_transient: true, code: 2 } }] },
    proxy: { '*': [404, '<html>Not Found</html>'] },
    captive: { '*': [200, '<html>captive portal</html>'] },
    'list-down': { '/1065': [200, phone('1065')], '/W1/phone_numbers': [500, { error: { code: 1, message: 'An unknown error has occurred.' } }] },
  };

  before(async () => {
    server = http.createServer((req, res) => {
      const auth = req.headers.authorization;
      seen.push({ url: req.url ?? '', auth });
      const url = new URL(req.url ?? '/', 'http://graph');
      const path = url.pathname.replace(/^\/v[\d.]+/, '') + (url.searchParams.get('after') ? `?after=${url.searchParams.get('after')}` : '');
      const byToken = answers[(auth ?? '').replace(/^Bearer /, '')] ?? { '*': [400, { error: { type: 'OAuthException', code: 190 } }] };
      const answer = byToken[path] ?? byToken['*'] ?? unsupported(path);
      res.writeHead(answer[0], { 'content-type': 'application/json' });
      res.end(typeof answer[1] === 'string' ? answer[1] : JSON.stringify(answer[1]));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v21.0`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  const claim = (phoneNumberId: string, wabaId: string, accessToken: string) => ({ phoneNumberId, wabaId, accessToken });

  it('owned when the token reads the number and the account lists it (following its pages); the token travels as a header', async () => {
    const graph = new GraphSocialAccounts({ baseUrl: base });
    seen.length = 0;
    expect(await graph.businessNumber(claim('1065', 'W1', 'owner'))).to.equal('owned');
    expect(seen).to.deep.equal([
      { url: '/v21.0/1065?fields=id,display_phone_number,verified_name', auth: 'Bearer owner' },
      { url: '/v21.0/W1/phone_numbers?fields=id&limit=100', auth: 'Bearer owner' },
    ]);
    expect(await graph.businessNumber(claim('2065', 'W2', 'owner'))).to.equal('owned');
    expect(seen.at(-1)!.url).to.equal('/v21.0/W2/phone_numbers?fields=id&limit=100&after=QVFIUb');
  });

  it('not-owned when the token cannot read the number, or the number is not in the account named; token-refused on code 190', async () => {
    const graph = new GraphSocialAccounts({ baseUrl: base });
    expect(await graph.businessNumber(claim('1065', 'W1', 'other')), "another company's number").to.equal('not-owned');
    expect(await graph.businessNumber(claim('9065', 'W1', 'other')), 'its own number, in an account it cannot read').to.equal('not-owned');
    expect(await graph.businessNumber(claim('1065', 'W2', 'owner')), 'a number of another account of the token').to.equal('not-owned');
    expect(await graph.businessNumber(claim('1065', 'W1', 'expired'))).to.equal('token-refused');
    expect(await graph.businessNumber(claim('1065', 'W1', 'made-up'))).to.equal('token-refused');
  });

  it('never asks with an empty token or ids that would change the path', async () => {
    const graph = new GraphSocialAccounts({ baseUrl: base });
    seen.length = 0;
    expect(await graph.businessNumber(claim('1065', 'W1', ''))).to.equal('not-owned');
    expect(await graph.businessNumber(claim('../me', 'W1', 'owner'))).to.equal('not-owned');
    expect(await graph.businessNumber(claim('1065', 'W1/phone_numbers?x=', 'owner'))).to.equal('not-owned');
    expect(seen).to.deep.equal([]);
  });

  it("throttling, a 5xx, an answer that is not the Graph API's or no server: ERR_BIZCHAT_PROVIDER_UNAVAILABLE (503), never an answer", async () => {
    const graph = new GraphSocialAccounts({ baseUrl: base, timeoutMs: 300 });
    for (const token of ['throttled', 'down', 'proxy', 'captive', 'list-down']) {
      const err = await graph.businessNumber(claim('1065', 'W1', token)).then(
        () => null,
        (e: { code?: string; kind?: string }) => [e.code, e.kind],
      );
      expect(err, token).to.deep.equal(['ERR_BIZCHAT_PROVIDER_UNAVAILABLE', 'unavailable']);
    }
    expect(await code(new GraphSocialAccounts({ baseUrl: 'http://127.0.0.1:9/v21.0' }).businessNumber(claim('1065', 'W1', 'owner')))).to.equal(
      'ERR_BIZCHAT_PROVIDER_UNAVAILABLE',
    );
  });
});
