import { UnauthorizedError } from '../shared/errors.js';
import type { Clock, IdGenerator } from '../shared/ports.js';
import type { RefreshSessions, Tokens, Users } from './ports.js';
import type { IssuedSession, SessionIssuer } from './session-issuer.js';
import { toUserView, type UserView } from './user.js';

export interface RefreshTokenResult extends IssuedSession { readonly user: UserView; }

/**
 * Rotates a refresh token. A refresh token that was already rotated away is a replay (it was
 * stolen, or the client is broken): the whole family is revoked and the user's token version
 * bumped, which invalidates every access and refresh token the user holds.
 */
export class RefreshToken {
  constructor(private readonly deps: {
    users: Users; sessions: RefreshSessions; tokens: Tokens; issuer: SessionIssuer; clock: Clock; ids: IdGenerator;
  }) {}

  async execute(input: { readonly refreshToken: string | undefined }): Promise<RefreshTokenResult> {
    const { users, sessions, tokens, issuer, clock, ids } = this.deps;
    if (!input.refreshToken) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    const claims = await tokens.verifyRefresh(input.refreshToken);
    const now = clock.now();
    const session = await sessions.find(claims.sessionId);
    const user = await users.findById(null, claims.userId);
    if (!session || !user || session.revokedAt || session.expiresAt <= now || session.userId !== user.id) {
      throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    }
    if (user.tokenVersion !== claims.tokenVersion) throw new UnauthorizedError('ERR_SESSION_EXPIRED');

    const nextJti = ids.uuid();
    const expiresAt = new Date(now.getTime() + tokens.refreshLifetimeSeconds * 1000);
    const rotated = await sessions.rotate(session.id, claims.jti, nextJti, expiresAt);
    if (!rotated) {
      await sessions.revokeAllOfUser(user.id, now);
      user.tokenVersion += 1;
      user.updatedAt = now;
      await users.update(user);
      throw new UnauthorizedError('ERR_REFRESH_TOKEN_REUSED');
    }
    const issued = await issuer.pair(user, session.id, nextJti, expiresAt);
    return { ...issued, user: toUserView(user) };
  }
}
