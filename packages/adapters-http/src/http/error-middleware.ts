import { DomainError, LocatedValidationError, TooManyRequestsError, type ErrorCode, type ErrorKind } from '@servicedesk/core';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';

/** The one table from domain error kinds to HTTP statuses. */
export const STATUS_OF: Record<ErrorKind, number> = {
  validation: 422,
  'bad-request': 400,
  unauthorized: 401,
  forbidden: 403,
  'not-found': 404,
  conflict: 409,
  'too-large': 413,
  'too-many-requests': 429,
  unavailable: 503,
  'method-not-allowed': 405,
  'unsupported-media-type': 415,
};

/**
 * Errors thrown by the HTTP plumbing itself (body parsing, unknown routes). The code is one of
 * the catalog's, and the status one the catalog's kinds of that code map to (a test checks it).
 */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly fields?: unknown,
  ) {
    super(code);
  }
}

/**
 * Writes every failure as `{ "error": "<code>" }`. Unknown errors become 500 with a fixed text
 * and are logged with the request id; their details never reach the client.
 */
export function errorMiddleware(logger: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new HttpError(404, 'ERR_ROUTE_NOT_FOUND');
      if (ctx.status === 405 && !ctx.body) throw new HttpError(405, 'ERR_METHOD_NOT_ALLOWED');
    } catch (err) {
      if (err instanceof DomainError) {
        ctx.status = STATUS_OF[err.kind];
        ctx.body = err instanceof LocatedValidationError ? { ...err.located, error: err.code } : { error: err.code };
        if (err instanceof TooManyRequestsError) ctx.set('Retry-After', String(err.retryAfterSeconds));
      } else if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.body = err.fields ? { error: err.code, fields: err.fields } : { error: err.code };
      } else {
        logger.error({ err, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'unhandled error');
        ctx.status = 500;
        ctx.body = { error: 'Internal server error' };
      }
    }
  };
}
