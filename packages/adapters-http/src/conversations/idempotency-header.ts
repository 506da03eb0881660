import type { Context } from 'koa';
import { z } from 'zod';
import { HttpError } from '../http/error-middleware.js';

/** 1 to 200 printable ASCII characters, no spaces: what the store keeps (`varchar(200)`). */
const key = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\x21-\x7e]+$/);

/**
 * The `Idempotency-Key` header of a send that takes one, for the route's `headers` (the OpenAPI
 * document); `scope` says where a key is unique and what else it is compared with.
 */
export function idempotencyHeader(scope: string) {
  return z.object({
    'Idempotency-Key': key.optional().meta({
      description:
        "Makes a retry safe: a request repeated with the same key answers the first one's status and body (for 24 hours) and sends nothing again. " +
        `${scope} The same key with another request answers 422 \`ERR_IDEMPOTENCY_KEY_REUSED\`, one sent while the first is still running 409 ` +
        '`ERR_IDEMPOTENT_REQUEST_IN_PROGRESS`. 1 to 200 printable ASCII characters without spaces (a UUID is a good choice), else 422 ' +
        '`ERR_INVALID_IDEMPOTENCY_KEY`; absent: every request sends.',
      example: '6f1c2a8e-3b4d-4c5e-9f70-8a1b2c3d4e5f',
    }),
  });
}

/** The request's `Idempotency-Key`, or undefined without one; a malformed key is 422 `ERR_INVALID_IDEMPOTENCY_KEY`. */
export function idempotencyKey(ctx: Context): string | undefined {
  const value = ctx.get('idempotency-key');
  if (!value) return undefined;
  if (!key.safeParse(value).success) throw new HttpError(422, 'ERR_INVALID_IDEMPOTENCY_KEY');
  return value;
}
