import type { AccessClaims, RefreshClaims, Tokens } from '../identity/ports.js';
import { UnauthorizedError } from '../shared/errors.js';

/** Opaque tokens remembered in a map: enough for use-case tests, no cryptography. */
export class InMemoryTokens implements Tokens {
  readonly refreshLifetimeSeconds = 7 * 24 * 3600;
  private readonly issued = new Map<string, { kind: 'access' | 'refresh'; claims: AccessClaims | RefreshClaims }>();
  private n = 0;

  async issueAccess(claims: AccessClaims) { return this.put('access', claims); }
  async issueRefresh(claims: RefreshClaims) { return this.put('refresh', claims); }
  async verifyAccess(token: string) { return this.take('access', token) as AccessClaims; }
  async verifyRefresh(token: string) { return this.take('refresh', token) as RefreshClaims; }

  private put(kind: 'access' | 'refresh', claims: AccessClaims | RefreshClaims) {
    const token = `${kind}-${++this.n}`;
    this.issued.set(token, { kind, claims });
    return token;
  }
  private take(kind: 'access' | 'refresh', token: string) {
    const entry = this.issued.get(token);
    if (!entry || entry.kind !== kind) throw new UnauthorizedError('ERR_INVALID_TOKEN');
    return entry.claims;
  }
}
