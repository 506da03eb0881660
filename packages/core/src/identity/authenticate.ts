import type { Companies, CompanySuspensions } from '../tenancy/ports.js';
import { ForbiddenError, UnauthorizedError } from '../shared/errors.js';
import type { Tokens, Users } from './ports.js';
import type { Actor } from '../shared/actor.js';
import type { User } from './user.js';

export interface Authenticated {
  readonly actor: Actor;
  readonly mustChangePassword: boolean;
}

/**
 * A user's company is live (super users excepted, as at login). Read on every request rather than
 * cached: it is one primary-key read, and a cache would let a deactivated company's tokens work on
 * some instance until it expired.
 */
export async function assertCompanyActive(companies: Companies, user: User): Promise<void> {
  if (user.profile === 'super') return;
  const company = await companies.findById(user.companyId);
  if (!company || !company.status) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
}

/**
 * A company suspended for an overdue invoice keeps its users' sessions, but only its admins may use
 * them (to pay, `POST /subscription`): everyone else is refused until it pays. Read on every request,
 * as the company's status is.
 */
export async function assertNotSuspended(suspensions: CompanySuspensions | undefined, user: User): Promise<void> {
  if (!suspensions || user.profile !== 'user') return;
  if (await suspensions.isSuspended(user.companyId)) throw new ForbiddenError('ERR_COMPANY_SUSPENDED');
}

/**
 * Verifies an access token and that it still belongs to a live user of the same version, of a
 * company still active (and, for its operators, not suspended), so that deletion, password and
 * profile changes, deactivation and refresh-token replays take effect at once.
 */
export class Authenticate {
  constructor(private readonly deps: { users: Users; companies: Companies; tokens: Tokens; suspensions?: CompanySuspensions }) {}

  async execute(token: string | undefined): Promise<Authenticated> {
    if (!token) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    const claims = await this.deps.tokens.verifyAccess(token);
    const user = await this.deps.users.findById(claims.companyId, claims.userId);
    if (!user || user.tokenVersion !== claims.tokenVersion) throw new UnauthorizedError('ERR_SESSION_EXPIRED');
    await assertCompanyActive(this.deps.companies, user);
    await assertNotSuspended(this.deps.suspensions, user);
    return {
      actor: { userId: user.id, companyId: user.companyId, profile: user.profile },
      mustChangePassword: user.mustChangePassword,
    };
  }
}
