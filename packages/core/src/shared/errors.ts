import type { ErrorCode } from './error-codes.js';

/**
 * Domain errors carry a stable code (the `error` field clients see), one of the catalog's
 * (`ERROR_CODES` in error-codes.ts), and a kind that every transport maps to its own status in
 * one table (HTTP: adapters-http error middleware).
 */
export type ErrorKind =
  | 'validation'
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'too-large'
  | 'too-many-requests'
  | 'unavailable'
  /** Only the HTTP layer answers these two (no domain error class has them). */
  | 'method-not-allowed'
  | 'unsupported-media-type';

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  constructor(
    readonly code: ErrorCode,
    readonly details?: Record<string, unknown>,
  ) {
    super(code);
    this.name = new.target.name;
  }
}

/** The request is well-formed but breaks a rule (422). */
export class ValidationError extends DomainError {
  readonly kind = 'validation' as const;
}
/**
 * A refused value located by fields of the answer itself (422 `{ error, ...located }`): the node of a
 * flow graph and why, for an editor to point at it; the step of a storage check that failed.
 */
export class LocatedValidationError extends ValidationError {
  constructor(
    code: ErrorCode,
    readonly located: Readonly<Record<string, unknown>>,
  ) {
    super(code, { ...located });
  }
}
/**
 * A refused value the client must be able to find (422): answered as `{ error, fields }`, as a
 * schema failure is, each field with its path in the use case's input and why.
 */
export class FieldsValidationError extends LocatedValidationError {
  constructor(
    code: ErrorCode,
    readonly fields: ReadonlyArray<{ readonly path: string; readonly message: string }>,
  ) {
    super(code, { fields });
  }
}
/** The request could not be understood at all (400), e.g. malformed JSON. */
export class BadRequestError extends DomainError {
  readonly kind = 'bad-request' as const;
}
/** Missing, invalid or revoked credentials (401). */
export class UnauthorizedError extends DomainError {
  readonly kind = 'unauthorized' as const;
}
/** Authenticated, but the profile or the plan does not allow it (403). */
export class ForbiddenError extends DomainError {
  readonly kind = 'forbidden' as const;
}
/** Absent, or belonging to another tenant (404): the two are indistinguishable on purpose. */
export class NotFoundError extends DomainError {
  readonly kind = 'not-found' as const;
}
/** Clashes with existing state (409), e.g. a duplicate e-mail or a plan still in use. */
export class ConflictError extends DomainError {
  readonly kind = 'conflict' as const;
}
/** Body or upload over its size limit (413). */
export class PayloadTooLargeError extends DomainError {
  readonly kind = 'too-large' as const;
}
/** Throttled (429); `retryAfterSeconds` becomes the Retry-After header. */
export class TooManyRequestsError extends DomainError {
  readonly kind = 'too-many-requests' as const;
  constructor(
    code: ErrorCode,
    readonly retryAfterSeconds: number,
  ) {
    super(code);
  }
}
/** A dependency outside our control did not answer (503). */
export class ServiceUnavailableError extends DomainError {
  readonly kind = 'unavailable' as const;
}
