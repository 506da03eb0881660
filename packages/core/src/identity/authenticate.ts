import { UnauthorizedError } from '../shared/errors.js';
import type { Tokens, Users } from './ports.js';
import type { Actor } from '../shared/actor.js';

export interface Authenticated {
  readonly actor: Actor;
  readonly mustChangePassword: boolean;
}

/**
 * Verifies an access token and that it still belongs to a live user of the same version,
 * so that deletion, profile changes and refresh-token replays take effect at once.
 */
export class Authenticate {
  constructor(private readonly deps: { users: Users; tokens: Tokens }) {}

  async execute(token: string | undefined): Promise<Authenticated> {
    if (!token) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    const claims = await this.deps.tokens.verifyAccess(token);
    const user = await this.deps.users.findById(claims.companyId, claims.userId);
    if (!user || user.tokenVersion !== claims.tokenVersion) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    return {
      actor: { userId: user.id, companyId: user.companyId, profile: user.profile },
      mustChangePassword: user.mustChangePassword,
    };
  }
}
