import type { Context } from 'koa';
import { HttpError } from './error-middleware.js';

export const DEFAULT_JSON_LIMIT = 1024 * 1024;

/** How deep JSON bodies may nest (objects and arrays). Deeper is refused before anything recursive sees it. */
export const MAX_JSON_DEPTH = 64;

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

/**
 * How deep a JSON text nests, counted in one pass over the characters (brackets inside strings
 * do not count), stopping as soon as `max` is passed. Malformed text is left to JSON.parse.
 */
export function jsonDepthExceeds(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** A NUL character (PostgreSQL cannot store it) or a UTF-16 surrogate without its pair (not text). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding the NUL character is the point
const BAD_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export const BAD_TEXT_MESSAGE = 'contains a NUL character or an unpaired UTF-16 surrogate';

/**
 * The path (`body.contact.name`) of the first string, or object key, holding a NUL character or a
 * lone surrogate, looked for through arrays and objects; null when there is none. No field needs
 * either: NUL cannot be stored by PostgreSQL and a lone surrogate is no character at all.
 */
export function findBadText(value: unknown, where: string): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value, path: where }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const v = item.value;
    if (typeof v === 'string') {
      if (BAD_TEXT.test(v)) return item.path;
    } else if (Array.isArray(v)) {
      v.forEach((e, i) => {
        stack.push({ value: e, path: `${item!.path}.${i}` });
      });
    } else if (v !== null && typeof v === 'object' && !Buffer.isBuffer(v)) {
      for (const [k, e] of Object.entries(v)) {
        if (BAD_TEXT.test(k)) return `${item.path}.${k.replace(BAD_TEXT, '?')}`;
        stack.push({ value: e, path: `${item.path}.${k}` });
      }
    }
  }
  return null;
}

/** Refuses (422 `ERR_VALIDATION`) a value with a NUL character or a lone surrogate anywhere in it. */
export function assertCleanText(value: unknown, where: string): void {
  const path = findBadText(value, where);
  if (path !== null) throw new HttpError(422, 'ERR_VALIDATION', [{ path, message: BAD_TEXT_MESSAGE }]);
}

/**
 * Parses JSON text: 400 `ERR_INVALID_JSON` when malformed, 400 `ERR_JSON_TOO_DEEP` when nested
 * deeper than `MAX_JSON_DEPTH` (checked before parsing), 422 `ERR_VALIDATION` for NUL characters
 * and lone surrogates in any string or key. Routes reading their body raw use it too.
 */
export function parseJsonText(text: string, where = 'body'): unknown {
  if (jsonDepthExceeds(text)) throw new HttpError(400, 'ERR_JSON_TOO_DEEP');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'ERR_INVALID_JSON');
  }
  assertCleanText(value, where);
  return value;
}

/** Parses a JSON body: 415 for another content type, 400 for malformed or too deep JSON, 413 when too large. */
export async function readJsonBody(ctx: Context, limit = DEFAULT_JSON_LIMIT): Promise<unknown> {
  const raw = await readRawBody(ctx, limit);
  if (raw.length === 0) return {};
  if (!ctx.is('application/json', '+json')) throw new HttpError(415, 'ERR_UNSUPPORTED_CONTENT_TYPE');
  return parseJsonText(raw.toString('utf8'));
}
