import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The page access token the fake Graph API answers as the page `pageId`'s own. */
export const pageToken = (pageId: string) => `bench-page-token:${pageId}`;

/**
 * Meta's Graph API `/me` on loopback, for the one call the backend makes when a page connection is
 * created (whom does this page access token belong to): a token made by `pageToken(id)` is page `id`.
 */
export class FakeGraph {
  private server: http.Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const token = /^Bearer bench-page-token:(.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const ok = req.method === 'GET' && /\/me(\?|$)/.test(req.url ?? '') && token;
      res.writeHead(ok ? 200 : 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(ok ? { id: token } : { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } }));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v21.0`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
