import { randomBytes } from 'node:crypto';
import type { BackgroundJobs } from '../shared/background-jobs.js';
import { ServiceUnavailableError, ValidationError } from '../shared/errors.js';
import type { Mailer } from '../shared/mailer.js';
import type { Clock, PasswordHasher, SecretDigester, Transaction } from '../shared/ports.js';
import { normalizeEmail } from '../shared/text.js';
import type { LoginThrottle, LoginThrottlePolicy } from './login-throttle.js';
import type { PasswordResets } from './password-resets.js';
import type { RefreshSessions, Users } from './ports.js';
import { mailLanguage, resetMail } from './reset-mail.js';
import type { UserAnnouncer } from './user-announcer.js';
import { assertPassword } from './user-rules.js';

/** How long an e-mailed reset link works. */
export const RESET_TOKEN_LIFETIME_MS = 30 * 60_000;
/** Random bytes of a reset token (base64url in the link). */
export const RESET_TOKEN_BYTES = 32;
/** Reset requests counted per e-mail and per address, as login attempts are: three per e-mail and 20 per address an hour. */
export const DEFAULT_RESET_THROTTLE: LoginThrottlePolicy = { maxFailuresPerEmail: 3, maxFailuresPerIp: 20, windowSeconds: 3600 };
/** Where the console opens a reset link, under the console's address. */
export const RESET_PASSWORD_PATH = '/app/reset-password';

export interface RequestPasswordResetInput {
  readonly email: string;
  readonly ip: string;
  /** The request's `Accept-Language`: the e-mail is written in the first of en, pt-BR, es it names (else en). */
  readonly acceptLanguage?: string;
}

/**
 * "Forgot your password?": answers the same whether or not the e-mail belongs to a user, so that
 * nobody learns which addresses have accounts. Requests are counted per e-mail and per address
 * (429 past the limits, whoever the e-mail is). The lookup, the token and the e-mail happen after
 * the answer, in a background job, so that the answer's timing tells nothing either. When the
 * user exists, a random token's digest replaces any earlier reset of theirs, and the token goes
 * out in a link to the console. Without a mailer the request is refused (`ERR_MAIL_NOT_CONFIGURED`)
 * whoever asks: an administrator sets the password instead.
 */
export class RequestPasswordReset {
  constructor(
    private readonly deps: {
      users: Users;
      resets: PasswordResets;
      mailer: Mailer | undefined;
      digester: SecretDigester;
      throttle: LoginThrottle;
      jobs: BackgroundJobs;
      clock: Clock;
      /** The console's address (an origin, maybe with a path prefix): links go to `<consoleUrl>/app/reset-password?token=…`. */
      consoleUrl: string;
    },
  ) {}

  async execute(input: RequestPasswordResetInput): Promise<void> {
    const { mailer, throttle, jobs } = this.deps;
    if (!mailer) throw new ServiceUnavailableError('ERR_MAIL_NOT_CONFIGURED');
    const email = normalizeEmail(input.email);
    await throttle.begin(email, input.ip);
    const language = mailLanguage(input.acceptLanguage);
    jobs.start('identity.password-reset-mail', () => this.send(mailer, email, language));
  }

  private async send(mailer: Mailer, email: string, language: ReturnType<typeof mailLanguage>): Promise<void> {
    const { users, resets, digester, clock, consoleUrl } = this.deps;
    const now = clock.now();
    await resets.removeExpired(now);
    const user = await users.findByEmail(email);
    if (!user) return;
    const token = randomBytes(RESET_TOKEN_BYTES).toString('base64url');
    await resets.replace({
      userId: user.id,
      tokenDigest: digester.digest(token),
      expiresAt: new Date(now.getTime() + RESET_TOKEN_LIFETIME_MS),
      createdAt: now,
    });
    const link = `${consoleUrl.replace(/\/+$/, '')}${RESET_PASSWORD_PATH}?token=${encodeURIComponent(token)}`;
    await mailer.send(resetMail({ to: user.email, name: user.name, link, language }));
  }
}

export interface ResetPasswordInput {
  readonly token: string;
  readonly password: string;
}

/**
 * Sets a new password with an e-mailed token: the password follows the rules of every password
 * (checked before the token is used up), `mustChangePassword` is cleared, and every session of
 * the user ends (token version bumped, refresh families revoked), as a password change does. The
 * token is taken in the same transaction as the change: used once, and a failure leaves both as
 * they were. Unknown or used tokens answer `ERR_RESET_TOKEN_INVALID`, expired ones
 * `ERR_RESET_TOKEN_EXPIRED`. Answers the user's e-mail, for the sign-in that follows.
 */
export class ResetPassword {
  constructor(
    private readonly deps: {
      users: Users;
      resets: PasswordResets;
      sessions: RefreshSessions;
      digester: SecretDigester;
      hasher: PasswordHasher;
      tx: Transaction;
      clock: Clock;
      announcer: UserAnnouncer;
    },
  ) {}

  async execute(input: ResetPasswordInput): Promise<{ email: string }> {
    const { users, resets, sessions, digester, hasher, tx, clock } = this.deps;
    assertPassword(input.password);
    if (!input.token) throw new ValidationError('ERR_RESET_TOKEN_INVALID');
    const user = await tx.run(async () => {
      const reset = await resets.take(digester.digest(input.token));
      if (!reset) throw new ValidationError('ERR_RESET_TOKEN_INVALID');
      const now = clock.now();
      if (reset.expiresAt.getTime() <= now.getTime()) throw new ValidationError('ERR_RESET_TOKEN_EXPIRED');
      const found = await users.findById(null, reset.userId);
      if (!found) throw new ValidationError('ERR_RESET_TOKEN_INVALID');
      // Hashed only for a token that holds: a made-up token costs the server no hash.
      found.passwordHash = await hasher.hash(input.password);
      found.mustChangePassword = false;
      found.tokenVersion += 1;
      found.updatedAt = now;
      await users.update(found);
      await sessions.revokeAllOfUser(found.id, now);
      return found;
    });
    await this.deps.announcer.updated(user);
    return { email: user.email };
  }
}
