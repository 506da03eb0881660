import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A page a fake page access token belongs to. */
export type FakePage = string | { readonly pageId: string; readonly instagramAccountId?: string };

export interface FakeGraph {
  /** The base to give as `META_GRAPH_URL`. */
  readonly url: string;
  /** Page access token → page: add to it at any time. */
  readonly pages: Map<string, FakePage>;
  close(): Promise<void>;
}

/** The token of a Graph request: `Authorization: Bearer …` or `access_token=…`. */
export function graphToken(req: IncomingMessage): string | null {
  const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
  return bearer ?? new URL(req.url ?? '/', 'http://graph').searchParams.get('access_token');
}

/**
 * Answers what the Graph API answers about page access tokens: `GET /me` (and `GET /<page-id>`)
 * with a page token is the page, `{ id, name, instagram_business_account: { id } }`; an unknown token
 * is Meta's `OAuthException` (400, code 190). `other` handles every other request (the Send API).
 */
export function graphOwnership(pages: Map<string, FakePage>, req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? '/', 'http://graph');
  const node = /^\/v[\d.]+\/([^/]+)$/.exec(url.pathname)?.[1];
  if (req.method !== 'GET' || !node) return false;
  const token = graphToken(req);
  const page = token ? pages.get(token) : undefined;
  const { pageId, instagramAccountId } = typeof page === 'string' ? { pageId: page, instagramAccountId: undefined } : page ?? {};
  res.setHeader('content-type', 'application/json');
  if (!pageId || (node !== 'me' && node !== pageId)) {
    res.writeHead(400);
    res.end(JSON.stringify({ error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'fake' } }));
    return true;
  }
  res.writeHead(200);
  res.end(JSON.stringify({ id: pageId, name: `Page ${pageId}`, ...(instagramAccountId ? { instagram_business_account: { id: instagramAccountId } } : {}) }));
  return true;
}

/** A fake Graph API on loopback that knows the given page tokens. */
export async function startFakeGraph(pages: Record<string, FakePage> = {}): Promise<FakeGraph> {
  const known = new Map(Object.entries(pages));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (!graphOwnership(known, req, res)) { res.writeHead(404, { 'content-type': 'application/json' }); res.end('{"error":{"message":"Unknown path","code":100}}'); }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v21.0`,
    pages: known,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
