import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** A page a fake page access token belongs to. */
export type FakePage = string | { readonly pageId: string; readonly instagramAccountId?: string };

/** A business number of the Cloud API: its business account and the access token that controls it. */
export interface FakeNumber {
  readonly wabaId: string;
  readonly token: string;
}

export interface FakeGraph {
  /** The base to give as `META_GRAPH_URL`. */
  readonly url: string;
  /** Page access token → page: add to it at any time. */
  readonly pages: Map<string, FakePage>;
  /** Phone-number id → its business account and access token: add to it at any time. */
  readonly numbers: Map<string, FakeNumber>;
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
  const { pageId, instagramAccountId } = typeof page === 'string' ? { pageId: page, instagramAccountId: undefined } : (page ?? {});
  res.setHeader('content-type', 'application/json');
  if (!pageId || (node !== 'me' && node !== pageId)) {
    res.writeHead(400);
    res.end(
      JSON.stringify({ error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'fake' } }),
    );
    return true;
  }
  res.writeHead(200);
  res.end(JSON.stringify({ id: pageId, name: `Page ${pageId}`, ...(instagramAccountId ? { instagram_business_account: { id: instagramAccountId } } : {}) }));
  return true;
}

/**
 * Answers what the Graph API answers about business numbers, as the WhatsApp Business Management
 * API documents it: `GET /<phone-number-id>` with a token controlling the number is the number
 * (`{ verified_name, code_verification_status, display_phone_number, quality_rating, platform_type, id }`),
 * `GET /<waba-id>/phone_numbers` with a token of the account lists its numbers (`{ data: [...], paging:
 * { cursors: { before, after } } }`, one page). A node the token does not reach is Meta's
 * `GraphMethodException` (400, code 100, subcode 33); a token controlling no number is `OAuthException`
 * (code 190). False for a request that is none of these (a page token's, `GET /me`, a send).
 */
export function graphNumbers(numbers: Map<string, FakeNumber>, req: IncomingMessage, res: ServerResponse): boolean {
  const url = new URL(req.url ?? '/', 'http://graph');
  const match = /^\/v[\d.]+\/([^/]+)(\/phone_numbers)?$/.exec(url.pathname);
  if (req.method !== 'GET' || !match || match[1] === 'me') return false;
  const [, node, list] = match as unknown as [string, string, string | undefined];
  const token = graphToken(req);
  const controlled = [...numbers].filter(([, n]) => n.token === token);
  if (!list && !numbers.has(node) && !controlled.length) return false;
  const json = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  if (!controlled.length) {
    json(400, { error: { message: 'Invalid OAuth access token - Cannot parse access token', type: 'OAuthException', code: 190, fbtrace_id: 'fake' } });
    return true;
  }
  const shown = (id: string) => ({
    verified_name: `Loja ${id.slice(-4)}`,
    code_verification_status: 'VERIFIED',
    display_phone_number: `+55 11 4000-${id.slice(-4)}`,
    quality_rating: 'GREEN',
    platform_type: 'CLOUD_API',
    id,
  });
  if (list ? controlled.some(([, n]) => n.wabaId === node) : controlled.some(([id]) => id === node)) {
    json(
      200,
      list
        ? { data: [...numbers].filter(([, n]) => n.wabaId === node).map(([id]) => shown(id)), paging: { cursors: { before: 'QVFIUmxE', after: 'QVFIUkZA' } } }
        : shown(node),
    );
    return true;
  }
  json(400, {
    error: {
      message: `Unsupported get request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
      type: 'GraphMethodException',
      code: 100,
      error_subcode: 33,
      fbtrace_id: 'fake',
    },
  });
  return true;
}

/** A fake Graph API on loopback that knows the given page tokens and business numbers. */
export async function startFakeGraph(pages: Record<string, FakePage> = {}, numbers: Record<string, FakeNumber> = {}): Promise<FakeGraph> {
  const known = new Map(Object.entries(pages));
  const knownNumbers = new Map(Object.entries(numbers));
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (graphNumbers(knownNumbers, req, res)) return;
      if (!graphOwnership(known, req, res)) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"Unknown path","code":100}}');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v21.0`,
    pages: known,
    numbers: knownNumbers,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
