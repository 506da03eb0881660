import type { SecretDigester } from '../shared/ports.js';
import type { Connection } from './connection.js';
import { assertAccountFree, assertAccountOwned, tokenFields } from './connection-rules.js';
import type { Connections, SocialAccounts } from './ports.js';

/**
 * What a connection logs in with: its API token (digested, on no other connection) and its page or
 * business number (one its token controls, asked of the provider, and on no other connection).
 */
export class ConnectionCredentials {
  constructor(
    private readonly deps: {
      readonly connections: Connections;
      readonly digester: SecretDigester;
      readonly socialAccounts: SocialAccounts;
    },
  ) {}

  /** The token's digest and hint (409 `ERR_TOKEN_IN_USE` on another connection than `ownerId`). */
  token(token: string, ownerId: number | null): Promise<Pick<Connection, 'tokenDigest' | 'tokenHint'>> {
    return tokenFields(this.deps, token, ownerId);
  }

  /** The page or number is one the given token controls (asked of the provider). */
  assertOwned(c: Pick<Connection, 'kind' | 'externalId' | 'secrets'>): Promise<void> {
    return assertAccountOwned(this.deps.socialAccounts, c);
  }

  /** The page or number is on no other connection than `ownerId`. */
  assertFree(c: Pick<Connection, 'kind' | 'externalId'>, ownerId: number | null): Promise<void> {
    return assertAccountFree(this.deps.connections, c, ownerId);
  }
}
