import type { Context } from 'koa';
import { HttpError } from './error-middleware.js';

export const DEFAULT_JSON_LIMIT = 1024 * 1024;

/** Reads the raw request body, refusing more than `limit` bytes without buffering them. */
export async function readRawBody(ctx: Context, limit: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limit) throw new HttpError(413, 'ERR_BODY_TOO_LARGE');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      ctx.req.destroy();
      throw new HttpError(413, 'ERR_BODY_TOO_LARGE');
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Parses a JSON body: 415 for another content type, 400 for malformed JSON, 413 when too large. */
export async function readJsonBody(ctx: Context, limit = DEFAULT_JSON_LIMIT): Promise<unknown> {
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return {};
  if (!ctx.is('application/json', '+json')) throw new HttpError(415, 'ERR_UNSUPPORTED_CONTENT_TYPE');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    throw new HttpError(400, 'ERR_INVALID_JSON');
  }
}
