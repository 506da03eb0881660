import { UnauthorizedError } from '../shared/errors.js';
import type { Clock, Transaction } from '../shared/ports.js';
import type { CompanyStanding } from './company-standing.js';
import type { RefreshSessions, Tokens, Users } from './ports.js';
import type { RefreshRotation } from './refresh-rotation.js';
import type { IssuedSession } from './session-issuer.js';
import type { UserDetails, UserDetailsReader } from './user-details.js';

export interface RefreshTokenResult extends IssuedSession {
  readonly user: UserDetails;
}

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
      standing: CompanyStanding;
      sessions: Pick<RefreshSessions, 'find' | 'revokeAllOfUser'>;
      tokens: Pick<Tokens, 'verifyRefresh'>;
      rotation: RefreshRotation;
      tx: Transaction;
      clock: Clock;
      details: UserDetailsReader;
    },
  ) {}

  async execute(input: { readonly refreshToken: string | undefined }): Promise<RefreshTokenResult> {
    const { users, sessions, tokens, clock } = this.deps;
    if (!input.refreshToken) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    const claims = await tokens.verifyRefresh(input.refreshToken);
    const now = clock.now();
    const session = await sessions.find(claims.sessionId);
    const user = await users.findById(null, claims.userId);
    if (!session || !user || session.revokedAt || session.expiresAt <= now || session.userId !== user.id) {
      throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    }
    if (user.tokenVersion !== claims.tokenVersion) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    await this.deps.standing.assert(user);

    const issued = await this.deps.rotation.renew(user, session, claims, now);
    if (issued) return { ...issued, user: await this.deps.details.one(user) };
    await this.deps.tx.run(async () => {
      await sessions.revokeAllOfUser(user.id, now);
      user.tokenVersion += 1;
      user.updatedAt = now;
      await users.update(user);
    });
    throw new UnauthorizedError('ERR_REFRESH_TOKEN_REUSED');
  }
}
