import { TooManyRequestsError } from '../shared/errors.js';
import type { Cache } from '../shared/ports.js';

export interface LoginThrottlePolicy {
  readonly maxFailuresPerEmail: number;
  readonly maxFailuresPerIp: number;
  readonly windowSeconds: number;
}

export const DEFAULT_LOGIN_THROTTLE: LoginThrottlePolicy = { maxFailuresPerEmail: 5, maxFailuresPerIp: 30, windowSeconds: 900 };

/**
 * Counts failed logins per e-mail and per IP in the shared cache, so that every instance
 * sees the same counts. Only failures are counted: a successful login is never slowed.
 */
export class LoginThrottle {
  constructor(private readonly cache: Cache, private readonly policy: LoginThrottlePolicy = DEFAULT_LOGIN_THROTTLE) {}

  async assertAllowed(email: string, ip: string): Promise<void> {
    await this.check(this.emailKey(email), this.policy.maxFailuresPerEmail);
    await this.check(this.ipKey(ip), this.policy.maxFailuresPerIp);
  }

  async recordFailure(email: string, ip: string): Promise<void> {
    await this.cache.increment(this.emailKey(email), this.policy.windowSeconds);
    await this.cache.increment(this.ipKey(ip), this.policy.windowSeconds);
  }

  async recordSuccess(email: string): Promise<void> {
    await this.cache.delete(this.emailKey(email));
  }

  private async check(key: string, max: number): Promise<void> {
    const count = Number((await this.cache.get(key)) ?? 0);
    if (count >= max) {
      const ttl = (await this.cache.ttl(key)) ?? this.policy.windowSeconds;
      throw new TooManyRequestsError('ERR_TOO_MANY_LOGIN_ATTEMPTS', Math.max(1, ttl));
    }
  }

  private emailKey(email: string) { return `login-fail:email:${email}`; }
  private ipKey(ip: string) { return `login-fail:ip:${ip}`; }
}
