import type { Connection, NewConnection } from './connection.js';

export interface Connections {
  findById(companyId: number | null, id: number): Promise<Connection | null>;
  findByTokenDigest(digest: string): Promise<Connection | null>;
  /** The social-network connection of a page or account id at the provider, or (`kind: 'bizchat'`) the bizchat connection of a phone-number id. */
  findByExternalId(externalId: string, kind?: 'socialnet' | 'bizchat'): Promise<Connection | null>;
  list(companyId: number): Promise<Connection[]>;
  countByCompany(companyId: number): Promise<number>;
  add(connection: NewConnection): Promise<Connection>;
  update(connection: Connection): Promise<void>;
  remove(companyId: number, id: number): Promise<void>;
}

/** What the provider says a page access token belongs to. */
export interface PageOfToken {
  /** The Facebook page the token is a page access token of. */
  readonly pageId: string;
  /** The Instagram professional account linked to that page, if any. */
  readonly instagramAccountId: string | null;
}

/** A business-API number as a connection names it: its phone-number id, its business account, and the access token given for both. */
export interface BusinessNumberClaim {
  readonly phoneNumberId: string;
  readonly wabaId: string;
  readonly accessToken: string;
}

/**
 * What the provider says of a claimed number: `owned` when the token reaches the number and the
 * number is one of the business account's; `token-refused` when the token itself is refused
 * (invalid, expired or revoked); `not-owned` otherwise.
 */
export type BusinessNumberAnswer = 'owned' | 'token-refused' | 'not-owned';

/**
 * Asks the provider (Meta's Graph API) who a page access token belongs to, and whether an access
 * token controls a business-API number, so a company can only register a page or a number it holds
 * a token of. `pageOfToken` is null when the provider refuses the token; it throws
 * `ERR_GRAPH_API_UNAVAILABLE` (503) when it cannot be asked, `businessNumber`
 * `ERR_BIZCHAT_PROVIDER_UNAVAILABLE` (503).
 */
export interface SocialAccounts {
  pageOfToken(pageAccessToken: string): Promise<PageOfToken | null>;
  businessNumber(claim: BusinessNumberClaim): Promise<BusinessNumberAnswer>;
}
