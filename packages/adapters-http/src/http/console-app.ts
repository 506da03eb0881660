import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Middleware } from 'koa';
import send from 'koa-send';

/** Where the operator console is served. */
export const CONSOLE_PATH = '/app';

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // Media and avatars may come from a storage bucket or CDN; the API and its websocket from the backend.
  "img-src 'self' data: blob: https: http:",
  "media-src 'self' blob: https: http:",
  "connect-src 'self' ws: wss: https: http:",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serves the built console (packages/console, `vite build`) under /app/: the hashed files of
 * `assets/` immutable for a year, precompressed (`.br`, `.gz`) where the build wrote them, and
 * `index.html` (never cached) for every path that is not a file, so the console's own routes load
 * on a reload. A browser's plain `GET /` lands on /app/; a `GET /` carrying Meta's `hub.*`
 * parameters, and every other request to `/`, stays the social network's webhook.
 */
export function consoleApp(dir: string): Middleware {
  return async (ctx, next) => {
    if (ctx.path === '/' && ctx.method === 'GET' && !Object.keys(ctx.query).some((k) => k.startsWith('hub.')) && ctx.accepts('json', 'html') === 'html') {
      ctx.redirect(`${CONSOLE_PATH}/`);
      return;
    }
    if (ctx.path !== CONSOLE_PATH && !ctx.path.startsWith(`${CONSOLE_PATH}/`)) return next();
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === CONSOLE_PATH) {
      ctx.redirect(`${CONSOLE_PATH}/`);
      return;
    }
    const file = decodeURIComponent(ctx.path.slice(CONSOLE_PATH.length + 1));
    ctx.set('Content-Security-Policy', CSP);
    const isFile = /\.[a-z0-9]+$/i.test(file);
    if (isFile) {
      const immutable = file.startsWith('assets/');
      const served = await send(ctx, file, {
        root: dir,
        brotli: true,
        gzip: true,
        immutable,
        maxage: immutable ? 365 * 24 * 3600_000 : 0,
      }).catch((err: { status?: number }) => {
        if (err.status === 404 || err.status === 400 || err.status === 403) return null;
        throw err;
      });
      if (!served) return next();
      if (!immutable) ctx.set('Cache-Control', 'no-cache');
      return;
    }
    await send(ctx, 'index.html', { root: dir, brotli: true, gzip: true });
    ctx.set('Cache-Control', 'no-cache');
  };
}

/** The built console's folder when it exists (the backend serves /app/ only then). */
export function builtConsole(dir: string): string | null {
  return existsSync(path.join(dir, 'index.html')) ? dir : null;
}
