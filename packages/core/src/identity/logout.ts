import type { Clock } from '../shared/ports.js';
import type { RefreshSessions, Tokens, Users } from './ports.js';
import type { Actor } from '../shared/actor.js';

/** Ends the caller's refresh session (when its cookie came along) and marks the user offline. */
export class Logout {
  constructor(private readonly deps: { users: Users; sessions: RefreshSessions; tokens: Tokens; clock: Clock }) {}

  async execute(input: { readonly actor: Actor; readonly refreshToken: string | undefined }): Promise<void> {
    const { users, sessions, tokens, clock } = this.deps;
    const now = clock.now();
    if (input.refreshToken) {
      const claims = await tokens.verifyRefresh(input.refreshToken).catch(() => null);
      if (claims && claims.userId === input.actor.userId) await sessions.revoke(claims.sessionId, now);
    }
    const user = await users.findById(input.actor.companyId, input.actor.userId);
    if (user) {
      user.online = false;
      user.updatedAt = now;
      await users.update(user);
    }
  }
}
