import type { SendOutcome } from './reply-queue.js';

/** Statuses after which the same request may still succeed: a timeout, too early, too many. */
const RETRYABLE = new Set([408, 425, 429]);

/**
 * What an answer to a reply's send means for the queue. A server error or a throttle leaves the
 * outcome unknown (the same key is sent again, so it is stored once); a 409 is worth waiting out
 * only while the same key is still running (`ERR_IDEMPOTENT_REQUEST_IN_PROGRESS`): a closed
 * ticket's 409 is a refusal, shown with its reason.
 */
export function sendOutcomeOf(status: number, code: string | undefined): SendOutcome {
  if (status >= 200 && status < 300) return { kind: 'sent' };
  if (status >= 500 || RETRYABLE.has(status) || (status === 409 && code === 'ERR_IDEMPOTENT_REQUEST_IN_PROGRESS')) return { kind: 'unknown' };
  return { kind: 'refused', error: code ?? `HTTP_${status}` };
}
