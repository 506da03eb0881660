import type { Companies, CompanySuspensions } from '../tenancy/ports.js';
import { assertNotSuspended } from './authenticate.js';
import { ForbiddenError, UnauthorizedError } from '../shared/errors.js';
import type { Clock, PasswordHasher } from '../shared/ports.js';
import { normalizeEmail } from '../shared/text.js';
import type { LoginThrottle } from './login-throttle.js';
import type { Users } from './ports.js';
import type { IssuedSession, SessionIssuer } from './session-issuer.js';
import type { UserDetails, UserDetailsReader } from './user-details.js';

export interface LoginInput {
  readonly email: string;
  readonly password: string;
  readonly ip: string;
}
export interface LoginResult extends IssuedSession {
  readonly user: UserDetails;
}

/** A hash of a random password, verified when the e-mail is unknown so both paths cost the same. */
const TIMING_DECOY = 'decoy';

export class Login {
  private decoyHash: Promise<string> | undefined;

  constructor(
    private readonly deps: {
      users: Users;
      companies: Companies;
      hasher: PasswordHasher;
      throttle: LoginThrottle;
      sessions: SessionIssuer;
      clock: Clock;
      details: UserDetailsReader;
      suspensions?: CompanySuspensions;
    },
  ) {}

  async execute(input: LoginInput): Promise<LoginResult> {
    const { users, companies, hasher, throttle, sessions, clock } = this.deps;
    const email = normalizeEmail(input.email);
    await throttle.begin(email, input.ip);

    const user = await users.findByEmail(email);
    const ok = user ? await hasher.verify(user.passwordHash, input.password) : await hasher.verify(await this.decoy(), input.password).then(() => false);
    if (!user || !ok) throw new UnauthorizedError('ERR_INVALID_CREDENTIALS');
    await throttle.succeeded(email, input.ip);

    if (user.profile !== 'super') {
      const company = await companies.findById(user.companyId);
      if (!company || !company.status) throw new ForbiddenError('ERR_COMPANY_INACTIVE');
      await assertNotSuspended(this.deps.suspensions, user);
    }

    const now = clock.now();
    user.lastLoginAt = now;
    user.online = true;
    user.updatedAt = now;
    await users.update(user);
    const issued = await sessions.start(user);
    return { ...issued, user: await this.deps.details.one(user) };
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= this.deps.hasher.hash(TIMING_DECOY + Math.random());
    return this.decoyHash;
  }
}
