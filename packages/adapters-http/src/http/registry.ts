import type Router from '@koa/router';
import type { Context } from 'koa';
import type { z } from 'zod';
import { assertCompanyToken, authenticateUser, type AccessApi } from './auth-middleware.js';
import { assertCleanText, readJsonBody, readRawBody } from './body.js';
import { HttpError } from './error-middleware.js';
import { readMultipart, releaseMultipart } from './multipart.js';
import { assertResponseMatches } from './response-validation.js';
import type { RouteInput, RouteSpec } from './route.js';

export interface MountOptions {
  readonly app: AccessApi;
  /** Token of the company integration API (`isAuthCompany`); unset closes that API. */
  readonly companyToken?: string;
  /** Resolves the connection token of the official message API (`tokenAuth`). */
  readonly connectionAuth?: (ctx: Context) => Promise<unknown>;
  /**
   * Check every handler result against its route's response schema (tests turn this on, so the
   * black-box suite proves the schemas): a mismatch answers 500 and is logged with where it is.
   */
  readonly validateResponses?: boolean;
}

/**
 * Validates one part of the request against its schema (422 `ERR_VALIDATION` with `fields`). Every
 * part, declared or not, is first refused if any string or key in it holds a NUL character or a
 * lone surrogate: no field takes them, and PostgreSQL cannot store NUL.
 */
function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T {
  assertCleanText(value, where);
  if (!schema) return value as T;
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const fields = result.error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message }));
  throw new HttpError(422, 'ERR_VALIDATION', fields);
}

/** `/chatapp/` → `/chatapp`; `/` stays. Requests and declared paths go through it alike. */
export function withoutTrailingSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

/**
 * The path the router matches: a `<NAME>` segment (a secret of the deployment the inventory leaves
 * unnamed, `/subscription/return/<RETURN_TOKEN>/pix`) is a path parameter `NAME` the route checks itself.
 */
export function mountedPath(path: string): string {
  return withoutTrailingSlash(path).replace(/<(\w+)>/g, ':$1');
}

/** Mounts declared routes: auth class first, then params, query and body validation, then the handler. */
export function mountRoutes(router: Router, routes: readonly RouteSpec[], options: MountOptions): void {
  for (const spec of routes) {
    if (spec.feature && spec.auth !== 'isAuth') throw new Error(`${spec.path}: plan features apply to isAuth routes`);
    if (spec.auth === 'tokenAuth' && !options.connectionAuth) throw new Error(`${spec.path}: tokenAuth needs a connection resolver`);
    const handler = async (ctx: Context) => {
      // The request log names such a route by its declared path: the secret segment is not logged.
      if (spec.path.includes('<')) ctx.state.loggedPath = spec.path;
      let actor: RouteInput<unknown, unknown, unknown>['actor'] | undefined;
      let mustChangePassword = false;
      if (spec.auth === 'isAuth') {
        const auth = await authenticateUser(options.app, ctx, spec.duringPasswordChange ?? false);
        actor = auth.actor;
        mustChangePassword = auth.mustChangePassword;
        if (spec.feature) await options.app.tenancy.planGuard.assertFeature(auth.actor.companyId, spec.feature);
      }
      if (spec.auth === 'isAuthCompany') assertCompanyToken(ctx, options.companyToken);
      if (spec.auth === 'tokenAuth') ctx.state.connection = await options.connectionAuth!(ctx);
      spec.guard?.(ctx);
      const params = parse(spec.params, ctx.params, 'params');
      const query = parse(spec.query, ctx.query, 'query');
      let body: unknown;
      const raw = spec.raw ? await readRawBody(ctx, spec.raw) : Buffer.alloc(0);
      let multipart = { fields: {}, fieldLists: {}, files: {} } as RouteInput<unknown, unknown, unknown>['multipart'];
      if (spec.multipart && (!spec.jsonOrMultipart || ctx.is('multipart/form-data'))) {
        multipart = await readMultipart(ctx, spec.multipart);
        body = parse(spec.body, multipart.fields, 'body');
      } else if (spec.body) {
        body = parse(spec.body, await readJsonBody(ctx), 'body');
      }
      const result = await spec.handler({ body, query, params, actor: actor!, mustChangePassword, multipart, raw, ctx });
      if (options.validateResponses) await assertResponseMatches(spec, result);
      if (result === undefined) {
        ctx.status = 204;
      } else {
        // A handler may answer its body with another status (`/debug-queues`: 503 with the report).
        ctx.status = (ctx.state.responseStatus as number | undefined) ?? spec.status ?? 200;
        ctx.body = result;
      }
    };
    // Uploaded files are temporary files of the request: removed once the route is done, whatever happened.
    const handlerReleasingUploads = async (ctx: Context) => {
      try {
        await handler(ctx);
      } finally {
        await releaseMultipart(ctx);
      }
    };
    // Mounted without its trailing slash: the server strips one from every request (`/chatapp` and `/chatapp/` are one route).
    router.register(mountedPath(spec.path), [spec.method], handlerReleasingUploads, { name: `${spec.method} ${spec.path}` });
  }
}
