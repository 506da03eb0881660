import type { Clock, IdGenerator } from '../shared/ports.js';
import type { RefreshSessions, Tokens } from './ports.js';
import type { User } from './user.js';

export interface IssuedSession {
  readonly token: string;
  readonly refreshToken: string;
  readonly refreshExpiresAt: Date;
}

/** Starts a refresh-token family for a user and issues its first token pair. */
export class SessionIssuer {
  constructor(private readonly deps: { sessions: RefreshSessions; tokens: Tokens; clock: Clock; ids: IdGenerator }) {}

  async start(user: User): Promise<IssuedSession> {
    const { sessions, tokens, clock, ids } = this.deps;
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + tokens.refreshLifetimeSeconds * 1000);
    const sessionId = ids.uuid();
    const jti = ids.uuid();
    await sessions.create({
      id: sessionId,
      userId: user.id,
      companyId: user.companyId,
      currentJti: jti,
      previousJti: null,
      rotatedAt: null,
      expiresAt,
      revokedAt: null,
      createdAt: now,
    });
    return this.pair(user, sessionId, jti, expiresAt);
  }

  /** The pair of a session's token id; the same `issuedAt` gives the same pair again. */
  async pair(user: User, sessionId: string, jti: string, refreshExpiresAt: Date, issuedAt?: Date): Promise<IssuedSession> {
    const { tokens } = this.deps;
    const token = await tokens.issueAccess({ userId: user.id, companyId: user.companyId, profile: user.profile, tokenVersion: user.tokenVersion }, issuedAt);
    const refreshToken = await tokens.issueRefresh({ userId: user.id, sessionId, jti, tokenVersion: user.tokenVersion }, issuedAt);
    return { token, refreshToken, refreshExpiresAt };
  }
}
