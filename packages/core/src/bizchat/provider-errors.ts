/**
 * The Cloud API's error codes worth a reason of their own, on a refused send and on a `failed`
 * status webhook alike; any other code is `ERR_BIZCHAT_REFUSED` with the provider's code and text.
 */
const REASONS: Record<number, string> = {
  131047: 'ERR_BIZCHAT_WINDOW_CLOSED',
  131026: 'ERR_BIZCHAT_UNDELIVERABLE',
  132000: 'ERR_BIZCHAT_TEMPLATE_PARAMETERS',
  132001: 'ERR_BIZCHAT_TEMPLATE_NOT_FOUND',
  100: 'ERR_BIZCHAT_INVALID_REQUEST',
  190: 'ERR_BIZCHAT_TOKEN_INVALID',
};

/** A failed message's `failureReason` for a provider error code and its text. */
export function bizchatFailureReason(code: number, text: string): string {
  const known = REASONS[code];
  return known ? `${known}: ${text}` : `ERR_BIZCHAT_REFUSED: ${code} ${text}`;
}
