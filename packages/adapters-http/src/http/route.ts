import type { Actor, ErrorCode, PlanFeature } from '@servicedesk/core';
import type { Context } from 'koa';
import type { z } from 'zod';
import type { MultipartBody, MultipartLimits } from './multipart.js';

export type AuthClass = 'isAuth' | 'tokenAuth' | 'isAuthCompany' | 'none';
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RouteInput<B, Q, P> {
  readonly body: B;
  readonly query: Q;
  readonly params: P;
  /** The verified platform user on `isAuth` routes. */
  readonly actor: Actor;
  /** True while the user still has to replace the seeded default password. */
  readonly mustChangePassword: boolean;
  readonly multipart: MultipartBody;
  /** The unparsed body, for routes declaring `raw` (signature checks need the exact bytes). */
  readonly raw: Buffer;
  readonly ctx: Context;
}

/**
 * What a handler may return for a response schema: any value whose JSON form the schema accepts.
 * The schema describes the wire (what `JSON.stringify` makes of the result, which is what the
 * registry validates), so its input type is the reference, and a domain value serialising to it
 * fits: a `Date` (or anything with `toJSON`) where the schema says string, readonly arrays, extra fields.
 */
export type Serialized<T> = T extends string
  ? string extends T
    ? string | { toJSON(): string }
    : T
  : T extends number | boolean | null | undefined
    ? T
    : T extends readonly (infer U)[]
      ? readonly Serialized<U>[]
      : T extends object
        ? { readonly [K in keyof T]: Serialized<T[K]> }
        : T;

/** What the handler of a route with response schema `R` and success status `S` returns (nothing for 204). */
export type RouteResult<R extends z.ZodType, S extends number> = S extends 204 ? void : Serialized<z.input<R>>;

/**
 * An error a route may answer beyond those derived from its declaration (401 for guarded routes,
 * 403 for `isAuth`, 404 with path parameters, 422 with schemas, 400/413/415 when it reads a body):
 * a bare status, or a status with the stable codes it carries (catalog codes: a typo does not compile).
 */
export type RouteError = number | { readonly status: number; readonly codes?: readonly ErrorCode[]; readonly description?: string };

/**
 * One route, declared as data: the registry uses it to mount the handler with its auth class
 * and validation, to write the OpenAPI document, and to check auth classes against the seed.
 */
export interface RouteSpec<B = unknown, Q = unknown, P = unknown, R extends z.ZodType = z.ZodType, S extends number = number> {
  readonly method: Method;
  readonly path: string;
  readonly auth: AuthClass;
  /** One line: the operation's title in the reference. */
  readonly summary: string;
  /** Longer Markdown text for the reference, beyond the summary. */
  readonly description?: string;
  /** Defaults to one derived from method and path (`GET /tags/:tagId` → `getTagsByTagId`). */
  readonly operationId?: string;
  readonly tag: string;
  readonly body?: z.ZodType<B>;
  readonly query?: z.ZodType<Q>;
  readonly params?: z.ZodType<P>;
  /**
   * Request headers the handler reads (`ctx.get`) and checks itself, with its own error codes: declared
   * here for the OpenAPI document, which shows each with its description.
   */
  readonly headers?: z.ZodObject;
  /**
   * The success body as JSON (after serialisation). Examples go in the schema's metadata:
   * `.meta({ example })`; `.meta({ id: 'Tag' })` makes it a named component. Absent on 204 routes.
   */
  readonly response?: R;
  /** Media type of the success body; `application/json` unless the handler sets another `ctx.type`. */
  readonly responseMediaType?: string;
  /** Errors the route may answer beyond the derived ones (409, 429, 503, codes of 404...). */
  readonly errors?: readonly RouteError[];
  readonly multipart?: MultipartLimits;
  /** A credential check of a public route's own (a shared secret), run before the body is read. */
  readonly guard?: (ctx: Context) => void;
  /** Read the body unparsed, up to this many bytes, into `raw` (the handler parses it). */
  readonly raw?: number;
  /** With `multipart`: a JSON body is accepted too (the same fields, without files). */
  readonly jsonOrMultipart?: boolean;
  /** Success status; a handler returning undefined answers 204. `204` declares a route answering no body. */
  readonly status?: S;
  /** A plan feature the caller's company must have (403 ERR_PLAN_FEATURE_DISABLED otherwise). */
  readonly feature?: PlanFeature;
  /** Reachable while the user must still change the default password. */
  readonly duringPasswordChange?: boolean;
  readonly handler: (input: RouteInput<B, Q, P>) => Promise<RouteResult<R, S>>;
}

/**
 * Keeps the generic types of a route spec when listing routes in arrays: the handler's input is
 * typed by the body, query and params schemas, and its result checked against `response`.
 */
export function route<B = unknown, Q = unknown, P = unknown, R extends z.ZodType = z.ZodType, S extends number = number>(
  spec: RouteSpec<B, Q, P, R, S>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}
