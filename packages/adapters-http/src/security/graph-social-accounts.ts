import { ServiceUnavailableError, type PageOfToken, type SocialAccounts } from '@servicedesk/core';

/** An answer of `/me` is a few hundred bytes; anything much larger is not the Graph API. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface GraphSocialAccountsOptions {
  /** The Graph API base, version included (`META_GRAPH_URL`, e.g. `https://graph.facebook.com/v21.0`). */
  readonly baseUrl: string;
  readonly timeoutMs?: number;
}

/**
 * Asks Meta's Graph API who a page access token belongs to: `GET /me?fields=id,instagram_business_account`
 * with the token as a Bearer header (never in the URL, so it stays out of access logs). With a page
 * token, `/me` is the page itself, and `instagram_business_account` the Instagram account linked to it.
 * The rules of our other outgoing calls hold: only the configured base URL (no address from a
 * request), no redirects, a timeout and a size cap. A 4xx (`OAuthException`: expired or revoked
 * token, a user token that has no such field) means the token is refused; no answer, a 5xx, a rate
 * limit or a body that is not the Graph API's is `ERR_GRAPH_API_UNAVAILABLE`.
 */
export class GraphSocialAccounts implements SocialAccounts {
  constructor(private readonly o: GraphSocialAccountsOptions) {}

  async pageOfToken(pageAccessToken: string): Promise<PageOfToken | null> {
    if (!pageAccessToken) return null;
    const url = `${this.o.baseUrl.replace(/\/$/, '')}/me?fields=id,instagram_business_account`;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, {
        headers: { authorization: `Bearer ${pageAccessToken}`, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 10_000),
      });
      text = await cappedText(res);
    } catch {
      throw new ServiceUnavailableError('ERR_GRAPH_API_UNAVAILABLE');
    }
    const body = parse(text);
    if (res.status === 429 || res.status >= 500 || isRateLimit(body)) throw new ServiceUnavailableError('ERR_GRAPH_API_UNAVAILABLE');
    if (res.status >= 400) return null;
    const id = body?.id;
    if (res.status !== 200 || typeof id !== 'string' || !id) throw new ServiceUnavailableError('ERR_GRAPH_API_UNAVAILABLE');
    const instagram = body.instagram_business_account as { id?: unknown } | undefined;
    return { pageId: id, instagramAccountId: typeof instagram?.id === 'string' && instagram.id ? instagram.id : null };
  }
}

function parse(text: string): Record<string, any> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, any>) : null;
  } catch {
    return null;
  }
}

/** Graph API throttling codes (application, user, page): not the token's fault. */
function isRateLimit(body: Record<string, any> | null): boolean {
  return [4, 17, 32, 613].includes(Number(body?.error?.code));
}

async function cappedText(res: Response): Promise<string> {
  if (Number(res.headers.get('content-length') ?? 0) > MAX_ANSWER_BYTES) throw new Error('answer too large');
  const reader = res.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > MAX_ANSWER_BYTES) { await reader.cancel(); throw new Error('answer too large'); }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
