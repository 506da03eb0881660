import type { Actor, PlanFeature } from '@servicedesk/core';
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
 * One route, declared as data: the registry uses it to mount the handler with its auth class
 * and validation, to write the OpenAPI document, and to check auth classes against the seed.
 */
export interface RouteSpec<B = unknown, Q = unknown, P = unknown> {
  readonly method: Method;
  readonly path: string;
  readonly auth: AuthClass;
  readonly summary: string;
  readonly tag: string;
  readonly body?: z.ZodType<B>;
  readonly query?: z.ZodType<Q>;
  readonly params?: z.ZodType<P>;
  readonly multipart?: MultipartLimits;
  /** A credential check of a public route's own (a shared secret), run before the body is read. */
  readonly guard?: (ctx: Context) => void;
  /** Read the body unparsed, up to this many bytes, into `raw` (the handler parses it). */
  readonly raw?: number;
  /** With `multipart`: a JSON body is accepted too (the same fields, without files). */
  readonly jsonOrMultipart?: boolean;
  /** Success status; a handler returning undefined answers 204. */
  readonly status?: number;
  /** A plan feature the caller's company must have (403 ERR_PLAN_FEATURE_DISABLED otherwise). */
  readonly feature?: PlanFeature;
  /** Reachable while the user must still change the default password. */
  readonly duringPasswordChange?: boolean;
  readonly handler: (input: RouteInput<B, Q, P>) => Promise<unknown>;
}

/** Keeps the generic types of a route spec when listing routes in arrays. */
export function route<B = unknown, Q = unknown, P = unknown>(spec: RouteSpec<B, Q, P>): RouteSpec {
  return spec as unknown as RouteSpec;
}
