import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import cors from '@koa/cors';
import Router from '@koa/router';
import type { Actor, BlobStorage, Cache, RealtimeFanout, RealtimeViewer, TicketScope } from '@servicedesk/core';
import Koa, { type Context } from 'koa';
import helmet from 'koa-helmet';
import type { Logger } from 'pino';
import { SOCKET_IO_PATH, SocketIoNamespaces } from './realtime/socket-io-namespaces.js';
import { WsNamespaces } from './realtime/ws-namespaces.js';
import { consoleApp } from './http/console-app.js';
import { errorMiddleware } from './http/error-middleware.js';
import { mountReferencePage } from './http/reference-page.js';
import { mountRoutes, withoutTrailingSlash, type MountOptions } from './http/registry.js';
import type { RouteSpec } from './http/route.js';

export interface HttpServerOptions extends MountOptions {
  readonly routes: readonly RouteSpec[];
  readonly logger: Logger;
  readonly cache: Cache;
  readonly fanout: RealtimeFanout;
  /** A realtime socket's user as it is now (what it may read, its token version); null when gone. */
  readonly realtimeViewer: (actor: Actor) => Promise<RealtimeViewer | null>;
  /** A ticket of the company as the visibility rule reads it (null: none): what a socket's viewer announcement is checked against. */
  readonly realtimeTicket: (companyId: number, ticketId: number) => Promise<TicketScope | null>;
  readonly blobs: BlobStorage;
  /** Origins allowed to call with credentials (the operator frontend). */
  readonly frontendUrls: readonly string[];
  /** Trust X-Forwarded-* (behind a proxy): needed for real client IPs and Secure cookies. */
  readonly trustProxy: boolean;
  readonly info: { title: string; version: string };
  /** Opens the unit of work of one request (MikroORM's RequestContext in production). */
  readonly requestScope?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Serve the realtime events over socket.io too, at `/socket.io/` (the lineage client's transport). Default true. */
  readonly socketIo?: boolean;
  /** The built operator console's folder, served at /app/ (none: not served). */
  readonly consoleDir?: string | null;
}

export interface HttpServer {
  readonly koa: Koa;
  readonly server: Server;
  readonly namespaces: WsNamespaces;
  /** The socket.io transport, unless `socketIo: false`. */
  readonly socketIo: SocketIoNamespaces | null;
  readonly routes: readonly RouteSpec[];
  /** Whether the operator console is served at /app/. */
  readonly consoleServed: boolean;
  listen(port: number, host?: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * Serves uploaded public files (logos, avatars, media) from blob storage, or redirects to where the
 * storage says clients may read them directly (a CDN in front of a company's bucket). Private blobs
 * are never served.
 */
function publicFiles(blobs: BlobStorage) {
  return async (ctx: Context) => {
    const key = `public/${(ctx.params as { path?: string | string[] }).path ?? ''}`.replace(/,/g, '/');
    if (key.includes('..')) return;
    const direct = await blobs.directUrl?.(key).catch(() => null);
    if (direct) {
      ctx.set('Cache-Control', 'public, max-age=300');
      ctx.redirect(direct);
      return;
    }
    const blob = await blobs.get(key).catch(() => null);
    if (!blob) return;
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'public, max-age=300');
    // Logos and avatars are shown by the frontend, another origin (helmet's default is same-origin).
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.type = blob.contentType;
    ctx.body = blob.data;
  };
}

export async function createHttpServer(o: HttpServerOptions): Promise<HttpServer> {
  const koa = new Koa({ proxy: o.trustProxy });
  const router = new Router();
  const allowed = new Set(o.frontendUrls.map((u) => u.replace(/\/$/, '')));

  koa.use(async (ctx, next) => {
    const started = process.hrtime.bigint();
    ctx.state.requestId = ctx.get('x-request-id') || randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId);
    await next();
    o.logger.info(
      {
        requestId: ctx.state.requestId,
        method: ctx.method,
        path: ctx.state.loggedPath ?? ctx.path,
        status: ctx.status,
        ms: Number(process.hrtime.bigint() - started) / 1e6,
      },
      'request',
    );
  });
  // helmet's defaults (CSP, HSTS, nosniff, frame and referrer policies...) on every answer, errors included;
  // the reference page sets its own stricter CSP, public files their own resource policy.
  koa.use(helmet());
  koa.use(
    cors({ origin: (ctx) => (allowed.has(ctx.get('origin')) ? ctx.get('origin') : ''), credentials: true, exposeHeaders: ['X-Request-Id', 'Retry-After'] }),
  );
  koa.use(errorMiddleware(o.logger));
  if (o.consoleDir) koa.use(consoleApp(o.consoleDir));
  // Trailing slashes are tolerated everywhere: clients write `/chatapp` and `/chatapp/` for one route.
  koa.use((ctx, next) => {
    ctx.path = withoutTrailingSlash(ctx.path);
    return next();
  });
  if (o.requestScope) koa.use((_ctx, next) => o.requestScope!(() => next()));

  mountRoutes(router, o.routes, o);
  // Built at its first request, not at start (its library and the walk over every schema take a
  // second a start does not need), and kept as bytes, with its Brotli and gzip copies (about a
  // seventh of its megabyte): the same bytes for every later request, in the encoding it accepts.
  let openapi: Promise<EncodedDocument> | undefined;
  router.get('/openapi.json', async (ctx) => {
    openapi ??= import('./http/openapi.js').then((m) => encodedDocument(JSON.stringify(m.buildOpenApi(o.routes, o.info))));
    const document = await openapi.catch((err: unknown) => {
      openapi = undefined;
      throw err;
    });
    ctx.type = 'application/json; charset=utf-8';
    ctx.vary('Accept-Encoding');
    // Brotli whenever it is accepted at all (browsers list gzip first but take either).
    const encoding = ctx.acceptsEncodings('br') === 'br' ? 'br' : ctx.acceptsEncodings('gzip') === 'gzip' ? 'gzip' : 'identity';
    if (encoding === 'br' || encoding === 'gzip') ctx.set('Content-Encoding', encoding);
    ctx.body = encoding === 'br' ? document.br : encoding === 'gzip' ? document.gzip : document.identity;
  });
  mountReferencePage(router, { title: o.info.title, specUrl: '/openapi.json' });
  router.get('/public/*path', publicFiles(o.blobs));
  koa.use(router.routes());
  koa.use(router.allowedMethods());

  const server = createServer(koa.callback());
  const realtime = {
    app: o.app,
    cache: o.cache,
    fanout: o.fanout,
    logger: o.logger,
    scope: o.requestScope,
    viewer: o.realtimeViewer,
    ticket: o.realtimeTicket,
  };
  const withSocketIo = o.socketIo ?? true;
  const namespaces = new WsNamespaces({ ...realtime, ...(withSocketIo ? { ignorePaths: [SOCKET_IO_PATH] } : {}) });
  await namespaces.attach(server);
  const socketIo = withSocketIo ? new SocketIoNamespaces({ ...realtime, frontendUrls: [...allowed] }) : null;
  await socketIo?.attach(server);

  return {
    koa,
    server,
    namespaces,
    socketIo,
    routes: o.routes,
    consoleServed: !!o.consoleDir,
    listen(port, host) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      });
    },
    async close() {
      await namespaces.close();
      await socketIo?.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

interface EncodedDocument {
  readonly identity: Buffer;
  readonly gzip: Buffer;
  readonly br: Buffer;
}

/** A document's bytes as they are and compressed both ways a browser accepts. */
async function encodedDocument(text: string): Promise<EncodedDocument> {
  const identity = Buffer.from(text, 'utf8');
  const [gzipped, brotli] = await Promise.all([
    promisify(gzip)(identity, { level: 9 }),
    promisify(brotliCompress)(identity, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 9, [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
    }),
  ]);
  return { identity, gzip: gzipped, br: brotli };
}
