import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type Router from '@koa/router';
import type { Context } from 'koa';

/** Where the human-readable API reference is served; not a route of the seed's inventory. */
export const REFERENCE_PATH = '/docs';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_VERSION = (require('swagger-ui-dist/package.json') as { version: string }).version;

/** Swagger UI's start, in a file of its own so the page runs no inline script (a strict CSP allows it). */
const INITIALIZER = `window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    displayOperationId: true,
    filter: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout'
  });
});
`;
const INITIALIZER_NAME = `reference-${createHash('sha256').update(INITIALIZER).digest('hex').slice(0, 12)}.js`;
const ASSETS = `${REFERENCE_PATH}/assets`;
const SWAGGER_ASSETS = `${ASSETS}/swagger-ui-${SWAGGER_VERSION}`;

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, specUrl: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} — API reference</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="${SWAGGER_ASSETS}/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui" data-spec-url="${escapeHtml(specUrl)}"></div>
  <script src="${SWAGGER_ASSETS}/swagger-ui-bundle.js"></script>
  <script src="${ASSETS}/${INITIALIZER_NAME}"></script>
</body>
</html>
`;
}

/** Versioned assets never change under their name: cached for a year. */
function immutable(ctx: Context, type: string, body: string | Buffer) {
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.type = type;
  ctx.body = body;
}

/**
 * Serves the API reference: Swagger UI from the `swagger-ui-dist` package (bundled, no CDN)
 * reading the document at `specUrl`. Not declared routes: they are not in `http.routes`.
 */
export function mountReferencePage(router: Router, options: { title: string; specUrl: string }): void {
  const html = page(options.title, options.specUrl);
  const files = new Map<string, Promise<Buffer>>();
  const packageFile = (name: string) => {
    if (!files.has(name))
      files.set(
        name,
        readFile(path.join(SWAGGER_DIR, name)).catch((err: unknown) => {
          files.delete(name);
          throw err;
        }),
      );
    return files.get(name)!;
  };
  router.get(REFERENCE_PATH, (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('Content-Security-Policy', CSP);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.type = 'html';
    ctx.body = html;
  });
  router.get(`${SWAGGER_ASSETS}/swagger-ui-bundle.js`, async (ctx) =>
    immutable(ctx, 'application/javascript; charset=utf-8', await packageFile('swagger-ui-bundle.js')),
  );
  router.get(`${SWAGGER_ASSETS}/swagger-ui.css`, async (ctx) => immutable(ctx, 'text/css; charset=utf-8', await packageFile('swagger-ui.css')));
  router.get(`${ASSETS}/${INITIALIZER_NAME}`, (ctx) => immutable(ctx, 'application/javascript; charset=utf-8', INITIALIZER));
}
