import type { Companies, CompanySuspensions } from '../tenancy/ports.js';
import { UnauthorizedError } from '../shared/errors.js';
import type { Clock, IdGenerator, Transaction } from '../shared/ports.js';
import { assertCompanyActive, assertNotSuspended } from './authenticate.js';
import type { RefreshSession, RefreshSessions, Tokens, Users } from './ports.js';
import type { IssuedSession, SessionIssuer } from './session-issuer.js';
import type { User } from './user.js';
import type { UserDetails, UserDetailsReader } from './user-details.js';

export interface RefreshTokenResult extends IssuedSession {
  readonly user: UserDetails;
}

/** How long a token just rotated away still yields the pair that replaced it (two tabs refreshing at once). */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

/**
 * Rotates a refresh token. The token rotated away last still yields the same new pair for
 * `graceSeconds` (a concurrent or immediately repeated refresh). Any other token of the family that
 * was already rotated away is a replay (it was stolen, or the client is broken): every family of the
 * user is revoked and the user's token version bumped, which invalidates every access and refresh
 * token the user holds.
 */
export class RefreshToken {
  constructor(
    private readonly deps: {
      users: Users;
      companies: Companies;
      sessions: RefreshSessions;
      tokens: Tokens;
      issuer: SessionIssuer;
      tx: Transaction;
      clock: Clock;
      ids: IdGenerator;
      details: UserDetailsReader;
      graceSeconds?: number;
      suspensions?: CompanySuspensions;
    },
  ) {}

  async execute(input: { readonly refreshToken: string | undefined }): Promise<RefreshTokenResult> {
    const { users, companies, sessions, tokens, issuer, clock, ids } = this.deps;
    if (!input.refreshToken) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    const claims = await tokens.verifyRefresh(input.refreshToken);
    const now = clock.now();
    let session = await sessions.find(claims.sessionId);
    const user = await users.findById(null, claims.userId);
    if (!session || !user || session.revokedAt || session.expiresAt <= now || session.userId !== user.id) {
      throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    }
    if (user.tokenVersion !== claims.tokenVersion) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    await assertCompanyActive(companies, user);
    await assertNotSuspended(this.deps.suspensions, user);

    if (claims.jti === session.currentJti) {
      const nextJti = ids.uuid();
      const expiresAt = new Date(now.getTime() + tokens.refreshLifetimeSeconds * 1000);
      if (await sessions.rotate(session.id, claims.jti, nextJti, expiresAt, now)) {
        return this.result(user, await issuer.pair(user, session.id, nextJti, expiresAt, now));
      }
      // Another refresh with the same token rotated it first: read what it wrote.
      session = await sessions.find(claims.sessionId);
    }
    if (session && this.withinGrace(session, claims.jti, now)) {
      return this.result(user, await issuer.pair(user, session.id, session.currentJti, session.expiresAt, session.rotatedAt!));
    }
    await this.deps.tx.run(async () => {
      await sessions.revokeAllOfUser(user.id, now);
      user.tokenVersion += 1;
      user.updatedAt = now;
      await users.update(user);
    });
    throw new UnauthorizedError('ERR_REFRESH_TOKEN_REUSED');
  }

  private withinGrace(session: RefreshSession, jti: string, now: Date): boolean {
    const graceMs = (this.deps.graceSeconds ?? REFRESH_REUSE_GRACE_SECONDS) * 1000;
    return (
      !session.revokedAt &&
      session.previousJti === jti &&
      session.rotatedAt !== null &&
      now.getTime() - session.rotatedAt.getTime() < graceMs &&
      session.expiresAt > now
    );
  }

  private async result(user: User, issued: IssuedSession): Promise<RefreshTokenResult> {
    return { ...issued, user: await this.deps.details.one(user) };
  }
}
