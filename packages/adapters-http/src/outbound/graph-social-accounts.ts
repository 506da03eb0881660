import { ServiceUnavailableError, type BusinessNumberAnswer, type BusinessNumberClaim, type PageOfToken, type SocialAccounts } from '@servicedesk/core';

/** An answer of `/me` or of a number is a few hundred bytes, a page of an account's number ids a few kilobytes; anything much larger is not the Graph API. */
const MAX_ANSWER_BYTES = 64 * 1024;

export interface GraphSocialAccountsOptions {
  /** The Graph API base, version included (`META_GRAPH_URL`, e.g. `https://graph.facebook.com/v21.0`). */
  readonly baseUrl: string;
  readonly timeoutMs?: number;
}

/** Meta's ids are digits: an id with other characters than letters, digits, `_` and `-` (`..`, `/`) would change the path asked, so it is not asked. */
const GRAPH_ID = /^[\w-]{1,128}$/;
/** A business account with more numbers than these pages hold is not one we serve. */
const MAX_NUMBER_PAGES = 10;

type ErrorCodeOf503 = 'ERR_GRAPH_API_UNAVAILABLE' | 'ERR_BIZCHAT_PROVIDER_UNAVAILABLE';

/**
 * Asks Meta's Graph API who a page access token belongs to, and whether an access token controls a
 * business-API number. Every call sends the token as a Bearer header (never in the URL, so it stays
 * out of access logs), and the rules of our other outgoing calls hold: only the configured base URL
 * (no address from a request), no redirects, a timeout and a size cap. A 4xx (`OAuthException`:
 * expired or revoked token, a node the token cannot read) is the provider's refusal; no answer, a
 * 5xx, a rate limit or a body that is not the Graph API's is unavailability (503).
 */
export class GraphSocialAccounts implements SocialAccounts {
  constructor(private readonly o: GraphSocialAccountsOptions) {}

  /** With a page token, `GET /me?fields=id,instagram_business_account` is the page itself and the Instagram account linked to it. */
  async pageOfToken(pageAccessToken: string): Promise<PageOfToken | null> {
    if (!pageAccessToken) return null;
    const { status, body } = await this.get('me?fields=id,instagram_business_account', pageAccessToken, 'ERR_GRAPH_API_UNAVAILABLE');
    if (status >= 400) return null;
    const id = body?.id;
    if (status !== 200 || typeof id !== 'string' || !id) throw new ServiceUnavailableError('ERR_GRAPH_API_UNAVAILABLE');
    const instagram = body.instagram_business_account as { id?: unknown } | undefined;
    return { pageId: id, instagramAccountId: typeof instagram?.id === 'string' && instagram.id ? instagram.id : null };
  }

  /**
   * `GET /<phone-number-id>?fields=id,display_phone_number,verified_name` must answer the number (the
   * token reaches it), and `GET /<waba-id>/phone_numbers` must list it (the number is the account's),
   * following the `after` cursors. Code 190 is the token refused; any other Graph refusal is `not-owned`;
   * an answer that is no Graph answer, or throttling, is `ERR_BIZCHAT_PROVIDER_UNAVAILABLE` (503).
   */
  async businessNumber(claim: BusinessNumberClaim): Promise<BusinessNumberAnswer> {
    const { phoneNumberId, wabaId, accessToken } = claim;
    if (!accessToken || !GRAPH_ID.test(phoneNumberId) || !GRAPH_ID.test(wabaId)) return 'not-owned';
    const number = await this.get(`${phoneNumberId}?fields=id,display_phone_number,verified_name`, accessToken, 'ERR_BIZCHAT_PROVIDER_UNAVAILABLE');
    if (number.status >= 400) return refusedAnswer(number.body);
    if (number.status !== 200 || typeof number.body?.id !== 'string') throw new ServiceUnavailableError('ERR_BIZCHAT_PROVIDER_UNAVAILABLE');
    if (number.body?.id !== phoneNumberId) return 'not-owned';
    let after: string | null = null;
    for (let page = 0; page < MAX_NUMBER_PAGES; page++) {
      const query = new URLSearchParams({ fields: 'id', limit: '100', ...(after ? { after } : {}) });
      const { status, body } = await this.get(`${wabaId}/phone_numbers?${query}`, accessToken, 'ERR_BIZCHAT_PROVIDER_UNAVAILABLE');
      if (status >= 400) return refusedAnswer(body);
      if (status !== 200 || !Array.isArray(body?.data)) throw new ServiceUnavailableError('ERR_BIZCHAT_PROVIDER_UNAVAILABLE');
      if (body.data.some((n: { id?: unknown } | null) => n?.id === phoneNumberId)) return 'owned';
      const cursor = body.paging?.cursors?.after;
      after = body.paging?.next && typeof cursor === 'string' && cursor ? cursor : null;
      if (!after) break;
    }
    return 'not-owned';
  }

  /** The Graph API's answer to a GET of `path` (relative to the base URL); 503 `unavailable` when it cannot give one. */
  private async get(path: string, token: string, unavailable: ErrorCodeOf503): Promise<{ status: number; body: Record<string, any> | null }> {
    let res: Response;
    let text: string;
    try {
      res = await fetch(`${this.o.baseUrl.replace(/\/$/, '')}/${path}`, {
        headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(this.o.timeoutMs ?? 10_000),
      });
      text = await cappedText(res);
    } catch {
      throw new ServiceUnavailableError(unavailable);
    }
    const body = parse(text);
    if (res.status === 429 || res.status >= 500 || isRateLimit(body)) throw new ServiceUnavailableError(unavailable);
    return { status: res.status, body };
  }
}

/**
 * A refused Graph request: code 190 is the token itself (invalid, expired, revoked); any other Graph
 * error (100 with subcode 33: no such node or no permission on it, 10 and 200: permissions), a node
 * the token cannot read. A 4xx without a Graph error is not the Graph API answering: unavailable.
 */
function refusedAnswer(body: Record<string, any> | null): BusinessNumberAnswer {
  const code = body?.error && typeof body.error === 'object' ? Number(body.error.code) : NaN;
  if (!Number.isFinite(code)) throw new ServiceUnavailableError('ERR_BIZCHAT_PROVIDER_UNAVAILABLE');
  return code === 190 ? 'token-refused' : 'not-owned';
}

function parse(text: string): Record<string, any> | null {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' ? (value as Record<string, any>) : null;
  } catch {
    return null;
  }
}

/** Graph API throttling codes (application, user, page, business account): not the token's fault. */
function isRateLimit(body: Record<string, any> | null): boolean {
  return [4, 17, 32, 613, 80007].includes(Number(body?.error?.code));
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
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error('answer too large');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
