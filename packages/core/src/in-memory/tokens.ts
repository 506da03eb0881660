import type { AccessClaims, RefreshClaims, Tokens } from '../identity/ports.js';
import { UnauthorizedError } from '../shared/errors.js';

/**
 * Opaque tokens remembered in a map: enough for use-case tests, no cryptography. As signed tokens
 * are, a token issued again with the same claims and `issuedAt` is the same token.
 */
export class InMemoryTokens implements Tokens {
  readonly refreshLifetimeSeconds = 7 * 24 * 3600;
  private readonly issued = new Map<string, { kind: 'access' | 'refresh'; claims: AccessClaims | RefreshClaims }>();
  private readonly reissued = new Map<string, string>();
  private n = 0;

  async issueAccess(claims: AccessClaims, issuedAt?: Date) {
    return this.put('access', claims, issuedAt);
  }
  async issueRefresh(claims: RefreshClaims, issuedAt?: Date) {
    return this.put('refresh', claims, issuedAt);
  }
  async verifyAccess(token: string) {
    return this.take('access', token) as AccessClaims;
  }
  async verifyRefresh(token: string) {
    return this.take('refresh', token) as RefreshClaims;
  }

  private put(kind: 'access' | 'refresh', claims: AccessClaims | RefreshClaims, issuedAt?: Date) {
    const identity = issuedAt ? JSON.stringify([kind, claims, Math.floor(issuedAt.getTime() / 1000)]) : null;
    const known = identity ? this.reissued.get(identity) : undefined;
    if (known) return known;
    const token = `${kind}-${++this.n}`;
    this.issued.set(token, { kind, claims: { ...claims } });
    if (identity) this.reissued.set(identity, token);
    return token;
  }
  private take(kind: 'access' | 'refresh', token: string) {
    const entry = this.issued.get(token);
    if (!entry || entry.kind !== kind) throw new UnauthorizedError('ERR_INVALID_TOKEN');
    return entry.claims;
  }
}
