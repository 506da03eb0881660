import { expect } from 'chai';
import WebSocket from 'ws';
import { eventually, sandboxDesk } from '../support/sandbox-conversations.js';
import { ADMIN, client, startTestBackend, type TestBackend } from '../support/test-backend.js';

describe('HTTP: security headers and shutdown', () => {
  describe('security headers (koa-helmet)', () => {
    let b: TestBackend;
    before(async () => {
      b = await startTestBackend();
    });
    after(async () => {
      await b.close();
    });

    it("sets helmet's headers on API answers, errors included", async () => {
      for (const path of ['/version', '/no-such-route']) {
        const res = await fetch(`${b.url}${path}`);
        expect(res.headers.get('x-content-type-options'), path).to.equal('nosniff');
        expect(res.headers.get('x-frame-options'), path).to.equal('SAMEORIGIN');
        expect(res.headers.get('strict-transport-security'), path).to.include('max-age=');
        expect(res.headers.get('content-security-policy'), path).to.include("default-src 'self'");
        expect(res.headers.get('x-powered-by'), path).to.equal(null);
      }
    });

    it("keeps the reference page's own stricter Content-Security-Policy", async () => {
      const res = await fetch(`${b.url}/docs`);
      expect(res.headers.get('content-security-policy')).to.include("default-src 'none'").and.include("script-src 'self'");
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    });
  });

  it('closes realtime clients with 1001 (going away) when the server stops', async () => {
    const b = await startTestBackend();
    let closed = false;
    try {
      const login = await client(b.url).post('/auth/login', ADMIN);
      const { token, user } = login.body as { token: string; user: { companyId: number } };
      const ws = new WebSocket(`${b.url.replace('http', 'ws')}/${user.companyId}?token=${token}`);
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      const code = new Promise<number>((resolve) => ws.once('close', (c) => resolve(c)));
      await b.close();
      closed = true;
      expect(await code).to.equal(1001);
    } finally {
      if (!closed) await b.close();
    }
  });

  it('SANDBOX_ECHO works in the embedded runtime (npm start): a sandbox contact answers a send with "Re: <body>"', async () => {
    const b = await startTestBackend({ SANDBOX_ECHO: 'true' });
    try {
      const desk = await sandboxDesk(b, { token: 'echo-connection-token-0001' });
      const sent = await client(b.url, 'echo-connection-token-0001').post('/api/messages/send', { number: '5511988887777', body: 'Hello' });
      expect(sent.status, JSON.stringify(sent.body)).to.equal(200);
      const bodies = await eventually('the echo to arrive', async () => {
        const page = (await desk.admin.get(`/messages/${sent.body.ticketId}`)).body.messages as Array<{ body: string; fromMe: boolean }>;
        return page.some((m) => !m.fromMe) && page.map((m) => `${m.fromMe ? 'out' : 'in'}: ${m.body}`);
      });
      expect(bodies).to.deep.equal(['out: Hello', 'in: Re: Hello']);
    } finally {
      await b.close();
    }
  });
});
