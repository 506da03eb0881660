import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { HttpConversationIntegrations, SIGNATURE_HEADER, signBody } from '../src/index.js';

const code = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

describe('HttpConversationIntegrations', () => {
  let server: http.Server;
  let base: string;
  const received: Array<{ headers: http.IncomingHttpHeaders; body: string; url: string }> = [];
  let answer = 200;

  before(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      req.on('end', () => {
        received.push({ headers: req.headers, body, url: req.url ?? '' });
        if (req.url === '/redirect') {
          res.writeHead(302, { location: '/elsewhere' });
          res.end();
          return;
        }
        if (req.url === '/slow') return; // never answers
        res.writeHead(answer, { 'content-type': 'application/json' });
        res.end('{"ok":true}');
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  beforeEach(() => {
    received.length = 0;
    answer = 200;
  });

  const request = (url: string, extra: Partial<Parameters<HttpConversationIntegrations['post']>[0]> = {}) => ({
    url,
    token: null,
    secret: null,
    deliveryId: 'd-1',
    event: 'message.inbound',
    payload: { hello: 'mundo', n: 1 },
    ...extra,
  });

  it('refuses loopback, private, link-local and mapped addresses unless allowed', async () => {
    const strict = new HttpConversationIntegrations();
    for (const url of [
      `${base}/hook`,
      'http://localhost:9/x',
      'http://10.0.0.8/x',
      'http://192.168.1.1/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
    ]) {
      expect(await code(strict.post(request(url))), url).to.equal('ERR_URL_NOT_ALLOWED');
    }
    expect(received).to.have.length(0);
    expect(await code(strict.post(request('ftp://example.com/x')))).to.equal('ERR_INVALID_INTEGRATION_URL');
  });

  it('posts the JSON payload with event, delivery id, bearer token and an HMAC signature of the exact body', async () => {
    const client = new HttpConversationIntegrations({ allowPrivate: true });
    answer = 202;
    expect(await client.post(request(`${base}/hook?x=1`, { token: 'tok-1', secret: 'shh' }))).to.deep.equal({ status: 202 });
    const [got] = received;
    expect(got!.url).to.equal('/hook?x=1');
    expect(JSON.parse(got!.body)).to.deep.equal({ hello: 'mundo', n: 1 });
    expect(got!.headers).to.include({
      'content-type': 'application/json',
      'x-servicedesk-event': 'message.inbound',
      'x-servicedesk-delivery': 'd-1',
      authorization: 'Bearer tok-1',
    });
    const expected = `sha256=${createHmac('sha256', 'shh').update(got!.body).digest('hex')}`;
    expect(got!.headers[SIGNATURE_HEADER]).to.equal(expected);
    expect(signBody('shh', got!.body)).to.equal(expected);
    await client.post(request(`${base}/plain`));
    expect(received[1]!.headers).to.not.have.any.keys('authorization', SIGNATURE_HEADER);
  });

  it('answers any status as it came (a redirect is not followed); no answer is ERR_INTEGRATION_UNREACHABLE', async () => {
    const client = new HttpConversationIntegrations({ allowPrivate: true, timeoutMs: 300 });
    answer = 500;
    expect(await client.post(request(`${base}/fail`))).to.deep.equal({ status: 500 });
    expect(await client.post(request(`${base}/redirect`))).to.deep.equal({ status: 302 });
    expect(received.map((r) => r.url)).to.deep.equal(['/fail', '/redirect']);
    expect(await code(client.post(request(`${base}/slow`)))).to.equal('ERR_INTEGRATION_UNREACHABLE');
    expect(await code(client.post(request('http://127.0.0.1:9/closed')))).to.equal('ERR_INTEGRATION_UNREACHABLE');
    expect(await code(client.post(request('http://no-such-host.invalid/x')))).to.equal('ERR_INTEGRATION_UNREACHABLE');
  });
});
