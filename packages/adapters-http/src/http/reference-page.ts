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

/**
 * Swagger UI's start, in a file of its own so the page runs no inline script (a strict CSP allows it).
 * Its plugin `quickDocument` changes how the document is read, not what is shown: Swagger UI parses
 * the JSON with its YAML parser, and resolves any part of an OpenAPI 3.1 document (the security
 * schemes at load, an operation when it is opened) by first converting the whole document to its
 * ApiDOM model, which took tens of seconds at load and seconds per opened operation. JSON is parsed
 * as JSON; a part without `$ref` needs no resolving; a part with refs is resolved in a copy of the
 * document cut down to it and the components it refers to (every `$ref` of this document is local).
 */
const INITIALIZER = `'use strict';
function quickDocument(system) {
  var resolveSubtree = SwaggerUIBundle.plugins.SwaggerClient(system).fn.resolveSubtree;
  var at = function (node, path) {
    return path.reduce(function (n, key) { return n == null ? n : n[key]; }, node);
  };
  var refsOf = function (node, found) {
    if (Array.isArray(node)) node.forEach(function (n) { refsOf(n, found); });
    else if (node && typeof node === 'object')
      Object.keys(node).forEach(function (key) {
        if (key === '$ref' && typeof node[key] === 'string') found.push(node[key]);
        else refsOf(node[key], found);
      });
    return found;
  };
  // An object without its extensions (x-...): the page does not show those of a component an operation refers to.
  var plain = function (node) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return node;
    var copy = {};
    Object.keys(node).forEach(function (key) {
      if (key.indexOf('x-') !== 0) copy[key] = node[key];
    });
    return copy;
  };
  // The part at path (a path item or a component) with the security schemes and every component it reaches
  // (without extensions: the Error schema's catalog of codes alone is most of an operation's share).
  var cut = function (spec, path) {
    var keep = path[0] === 'paths' ? ['paths', path[1]] : path[0] === 'components' ? path.slice(0, 3) : null;
    if (!keep || keep.length < 2 || at(spec, keep) === undefined) return spec;
    var parts = { paths: {}, components: { securitySchemes: at(spec, ['components', 'securitySchemes']) } };
    var put = function (keys, value) {
      var holder = keys.slice(0, -1).reduce(function (n, key) { return (n[key] = n[key] || {}); }, parts);
      if (!(keys[keys.length - 1] in holder)) holder[keys[keys.length - 1]] = value;
    };
    put(keep, at(spec, keep));
    var todo = refsOf(at(spec, keep), []);
    var seen = {};
    while (todo.length) {
      var ref = todo.pop();
      if (seen[ref] || ref.indexOf('#/components/') !== 0) continue;
      seen[ref] = true;
      var keys = ref.slice(2).split('/').slice(0, 3).map(function (k) { return decodeURIComponent(k).replace(/~1/g, '/').replace(/~0/g, '~'); });
      if (at(spec, keys) === undefined) continue;
      put(keys, plain(at(spec, keys)));
      refsOf(at(spec, keys), todo);
    }
    return Object.assign({}, spec, parts);
  };
  return {
    statePlugins: {
      spec: {
        wrapActions: {
          parseToJson: function (parse) {
            return function (text) {
              var json;
              try {
                json = JSON.parse(text || system.specSelectors.specStr());
              } catch (e) {
                return parse(text);
              }
              if (!json || typeof json !== 'object') return parse(text);
              system.errActions.clear({ source: 'parser' });
              return system.specActions.updateJsonSpec(json);
            };
          },
        },
      },
    },
    fn: {
      resolveSubtree: function (spec, path, options) {
        var part = at(spec, path);
        if (path[0] !== 'paths' && part !== undefined && refsOf(part, []).length === 0) return Promise.resolve({ spec: part, errors: [] });
        return resolveSubtree(cut(spec, path), path, options);
      },
    },
  };
}
window.addEventListener('load', function () {
  var root = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({
    url: root.getAttribute('data-spec-url'),
    dom_id: '#swagger-ui',
    deepLinking: true,
    displayOperationId: true,
    filter: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    plugins: [quickDocument],
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
