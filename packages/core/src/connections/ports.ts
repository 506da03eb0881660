import type { Connection, NewConnection } from './connection.js';

export interface Connections {
  findById(companyId: number | null, id: number): Promise<Connection | null>;
  findByTokenDigest(digest: string): Promise<Connection | null>;
  /** The social-network connection of a page or account id at the provider. */
  findByExternalId(externalId: string): Promise<Connection | null>;
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

/**
 * Asks the provider (Meta's Graph API) who a page access token belongs to, so a company can only
 * register a page it holds a token of. Null when the provider refuses the token; throws
 * `ERR_GRAPH_API_UNAVAILABLE` (503) when it cannot be asked.
 */
export interface SocialAccounts {
  pageOfToken(pageAccessToken: string): Promise<PageOfToken | null>;
}
