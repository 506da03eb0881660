import { createHash, timingSafeEqual } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import { Router } from '@koa/router';
import Koa from 'koa';
import openApiDocument from '../../openapi.json' with { type: 'json' };
import { DeletePlant } from '../core/delete-plant.js';
import { PlantNotFoundError } from '../core/errors.js';
import { ListPlants } from '../core/list-plants.js';
import type { Plant } from '../core/plant.js';
import type { Plants } from '../core/plants-port.js';

export interface PlantStoreAppOptions {
  plants: Plants;
  /** The bearer token every request except `GET /openapi.json` must present. */
  token: string;
}

/** The int32 ceiling the OpenAPI document promises for `limit` and `id`. */
const INT32_MAX = 2 ** 31 - 1;

/** Driving adapter: translates HTTP into the use cases and every failure into the Error object. */
export function createPlantStoreApp({ plants, token }: PlantStoreAppOptions): Koa {
  if (!token) throw new Error('createPlantStoreApp: token must be a non-empty string');
  const listPlants = new ListPlants(plants);
  const deletePlant = new DeletePlant(plants);

  const router = new Router();
  router.get('/openapi.json', (ctx) => {
    ctx.body = openApiDocument;
  });
  router.get('/plants', async (ctx) => {
    const plantsFound = await listPlants.execute(parseLimit(ctx.query['limit']));
    ctx.body = plantsFound.map(toJson);
  });
  router.delete('/plants/:id', async (ctx) => {
    await deletePlant.execute(parseId(ctx.params['id']));
    ctx.status = 204;
  });

  const app = new Koa();
  // Order matters: errors first so it also shapes 401s and router 404/405s; auth before routing so
  // unauthenticated callers cannot probe which routes exist.
  app.use(errorObjects);
  app.use(bearerAuth(token));
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

/** Thrown by the parsers below; `expose` makes the message safe to send back. */
class BadRequestError extends Error {
  readonly status = 400;
  readonly expose = true;
}

function parseLimit(raw: string | string[] | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const limit = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(limit) || limit > INT32_MAX) {
    throw new BadRequestError(`limit must be a single integer from 0 to ${INT32_MAX}`);
  }
  return limit;
}

function parseId(raw: string | undefined): number {
  const id = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(id) || id < 1 || id > INT32_MAX) throw new BadRequestError(`id must be an integer from 1 to ${INT32_MAX}`);
  return id;
}

/** Whitelists fields so nothing an adapter adds can leak past the documented Plant schema. */
function toJson({ id, name, tag }: Plant): Plant {
  return { id, name, ...(tag === undefined ? {} : { tag }) };
}

function bearerAuth(token: string): Koa.Middleware {
  // Compare SHA-256 digests: equal length always, so timingSafeEqual never throws and the
  // comparison time does not reveal the token's length or a matching prefix.
  const expected = digest(token);
  return async (ctx, next) => {
    if (ctx.path === '/openapi.json' && (ctx.method === 'GET' || ctx.method === 'HEAD')) return next();
    const match = /^Bearer +(\S+) *$/i.exec(ctx.get('Authorization'));
    if (match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected)) return next();
    // RFC 6750: say which scheme is expected, and flag a presented-but-wrong token.
    ctx.set('WWW-Authenticate', match ? 'Bearer realm="plant-store", error="invalid_token"' : 'Bearer realm="plant-store"');
    sendError(ctx, 401, match ? 'Invalid bearer token' : 'Missing bearer token (Authorization: Bearer <token>)');
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

async function errorObjects(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  try {
    await next();
  } catch (error) {
    const { status, message } = describeError(error);
    // Koa logs errors it sees; we swallowed this one, so hand unexpected ones back for logging.
    if (status >= 500) ctx.app.emit('error', error, ctx);
    sendError(ctx, status, message);
    return;
  }
  // Koa and the router leave unknown routes (404) and wrong methods (405) without a body.
  if (ctx.status >= 400 && ctx.body == null) {
    const allow = ctx.response.get('Allow');
    sendError(
      ctx,
      ctx.status,
      ctx.status === 404
        ? `No route for ${ctx.method} ${ctx.path}`
        : ctx.status === 405 && allow
          ? `${ctx.method} is not allowed on ${ctx.path} (allowed: ${allow})`
          : (STATUS_CODES[ctx.status] ?? 'Error'),
    );
  }
}

function describeError(error: unknown): { status: number; message: string } {
  if (error instanceof PlantNotFoundError) return { status: 404, message: error.message };
  // http-errors style (ctx.throw, BadRequestError): only client errors marked `expose` keep their message.
  const { status, expose, message } = (error ?? {}) as { status?: unknown; expose?: unknown; message?: unknown };
  if (typeof status === 'number' && Number.isInteger(status) && status >= 400 && status <= 599) {
    const safe = expose === true && status < 500 && typeof message === 'string';
    return { status, message: safe ? message : (STATUS_CODES[status] ?? 'Error') };
  }
  // Never echo internal details (SQL errors, stack traces) to clients.
  return { status: 500, message: 'Internal Server Error' };
}

function sendError(ctx: Koa.Context, status: number, message: string): void {
  ctx.status = status;
  ctx.body = { error: status, message };
}
