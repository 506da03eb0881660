import type { ErrorCode } from '../shared/error-codes.js';
import { TooManyRequestsError } from '../shared/errors.js';
import type { Cache } from '../shared/ports.js';

export interface LoginThrottlePolicy {
  readonly maxFailuresPerEmail: number;
  readonly maxFailuresPerIp: number;
  readonly windowSeconds: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicy = { maxFailuresPerEmail: 5, maxFailuresPerIp: 30, windowSeconds: 900 };

/** What a throttle's counters are called in the cache and the code it refuses with (another use of the same counting: password-reset requests). */
export interface ThrottleNaming {
  readonly prefix: string;
  readonly code: ErrorCode;
}
const LOGIN_NAMING: ThrottleNaming = { prefix: 'login-fail', code: 'ERR_TOO_MANY_LOGIN_ATTEMPTS' };

/**
 * Counts login attempts per e-mail and per IP in the shared cache, so that every instance sees the
 * same counts. An attempt is counted atomically (`Cache.increment`) before its password is checked
 * and refused past the limit, so parallel attempts cannot check more passwords than the limit
 * allows. A successful login clears its e-mail's count and gives its IP attempt back: only
 * failures (and attempts in flight) use the limits up. The window starts at the first counted attempt.
 */
export class LoginThrottle {
  constructor(
    private readonly cache: Cache,
    private readonly policy: LoginThrottlePolicy = DEFAULT_LOGIN_THROTTLE,
    private readonly naming: ThrottleNaming = LOGIN_NAMING,
  ) {}

  /** Counts an attempt; throws 429 when it is over either limit (then the attempt is not made). */
  async begin(email: string, ip: string): Promise<void> {
    const { cache, policy } = this;
    const byEmail = await cache.increment(this.emailKey(email), policy.windowSeconds);
    if (byEmail > policy.maxFailuresPerEmail) await this.refuse(this.emailKey(email));
    const byIp = await cache.increment(this.ipKey(ip), policy.windowSeconds);
    if (byIp > policy.maxFailuresPerIp) {
      await cache.increment(this.emailKey(email), policy.windowSeconds, -1);
      await this.refuse(this.ipKey(ip));
    }
  }

  /** The attempt begun for this e-mail and IP logged in: it stops counting as a failure. */
  async succeeded(email: string, ip: string): Promise<void> {
    await this.cache.delete(this.emailKey(email));
    await this.cache.increment(this.ipKey(ip), this.policy.windowSeconds, -1);
  }

  private async refuse(key: string): Promise<never> {
    const ttl = (await this.cache.ttl(key)) ?? this.policy.windowSeconds;
    throw new TooManyRequestsError(this.naming.code, Math.max(1, ttl));
  }

  private emailKey(email: string) {
    return `${this.naming.prefix}:email:${email}`;
  }
  private ipKey(ip: string) {
    return `${this.naming.prefix}:ip:${ip}`;
  }
}
