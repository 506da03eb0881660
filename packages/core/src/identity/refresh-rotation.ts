import type { Clock, IdGenerator } from '../shared/ports.js';
import type { RefreshClaims, RefreshSession, RefreshSessions, Tokens } from './ports.js';
import type { IssuedSession, SessionIssuer } from './session-issuer.js';
import type { User } from './user.js';

/** How long a token just rotated away still yields the pair that replaced it (two tabs refreshing at once). */
export const REFRESH_REUSE_GRACE_SECONDS = 30;

/**
 * The rotation of a refresh-token family: the current token is exchanged for a new pair once; the
 * token rotated away last still yields that same pair for `graceSeconds`.
 */
export class RefreshRotation {
  constructor(
    private readonly deps: {
      sessions: Pick<RefreshSessions, 'find' | 'rotate'>;
      tokens: Pick<Tokens, 'refreshLifetimeSeconds'>;
      issuer: Pick<SessionIssuer, 'pair'>;
      ids: IdGenerator;
      graceSeconds?: number;
    },
  ) {}

  /** The pair the presented token yields, or null when it may yield none (a replay). */
  async renew(user: User, session: RefreshSession, claims: RefreshClaims, now: Date): Promise<IssuedSession | null> {
    const { sessions, tokens, issuer, ids } = this.deps;
    let current: RefreshSession | null = session;
    if (claims.jti === current.currentJti) {
      const nextJti = ids.uuid();
      const expiresAt = new Date(now.getTime() + tokens.refreshLifetimeSeconds * 1000);
      if (await sessions.rotate(current.id, claims.jti, nextJti, expiresAt, now)) {
        return issuer.pair(user, current.id, nextJti, expiresAt, now);
      }
      // Another refresh with the same token rotated it first: read what it wrote.
      current = await sessions.find(claims.sessionId);
    }
    if (current && this.withinGrace(current, claims.jti, now)) {
      return issuer.pair(user, current.id, current.currentJti, current.expiresAt, current.rotatedAt!);
    }
    return null;
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
}
