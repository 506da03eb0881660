import { DomainError } from './errors.js';

/**
 * Whether doing the same work again may succeed. A broken rule never heals by itself (a missing
 * row stays missing, an invalid payload stays invalid), so a consumer gives such a message up at
 * once instead of retrying it `maxDeliver` times; throttling, an unavailable dependency and any
 * failure that is not a domain error (a dropped connection, a bug) are worth another try.
 */
export function isRetryable(err: unknown): boolean {
  if (err instanceof DomainError) return err.kind === 'unavailable' || err.kind === 'too-many-requests';
  return true;
}
