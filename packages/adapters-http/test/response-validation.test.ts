import { createServer, type Server } from 'node:http';
import { Writable } from 'node:stream';
import Router from '@koa/router';
import type { Application } from '@servicedesk/core';
import { expect } from 'chai';
import Koa from 'koa';
import { pino } from 'pino';
import { z } from 'zod';
import { errorMiddleware, mountRoutes, route, routesWithoutResponseSchema, type RouteSpec } from '../src/index.js';

const tagList = z.object({ tags: z.array(z.object({ id: z.number().int(), name: z.string(), createdAt: z.iso.datetime() })), count: z.number().int() });

/** Public routes only: the application is never reached. */
const routes: RouteSpec[] = [
  route({
    method: 'GET',
    path: '/right',
    auth: 'none',
    tag: 't',
    summary: 's',
    response: tagList,
    handler: async () => ({ tags: [{ id: 1, name: 'vip', createdAt: new Date('2025-01-02T03:04:05Z') }], count: 1 }),
  }),
  route({
    method: 'GET',
    path: '/lying',
    auth: 'none',
    tag: 't',
    summary: 's',
    response: tagList,
    // The compiler catches a lie told in the open; this one comes from an untyped source.
    handler: async () => JSON.parse('{"tags":[{"id":1,"name":7,"createdAt":"2025-01-02T03:04:05.000Z"}],"count":1}') as never,
  }),
  route({ method: 'DELETE', path: '/nothing', auth: 'none', tag: 't', summary: 's', status: 204, handler: async () => undefined }),
  route({ method: 'DELETE', path: '/something', auth: 'none', tag: 't', summary: 's', status: 204, handler: async () => ({ deleted: true }) as never }),
  route({ method: 'GET', path: '/unchecked', auth: 'none', tag: 't', summary: 's', handler: async () => ({ anything: 'goes' }) }),
];

async function serve(validateResponses: boolean) {
  const lines: Array<Record<string, any>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  const koa = new Koa();
  const router = new Router();
  koa.use(errorMiddleware(pino({ level: 'error' }, sink)));
  mountRoutes(router, routes, { app: {} as Application, validateResponses });
  koa.use(router.routes());
  const server = createServer(koa.callback()).listen(0);
  const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return { server, base, lines };
}

describe('HTTP response validation', () => {
  let on: Awaited<ReturnType<typeof serve>>;
  let off: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    on = await serve(true);
    off = await serve(false);
  });
  after(() => {
    on.server.close();
    off.server.close();
  });

  it('lets an answer that fits its schema through, as the client reads it (a Date is its ISO text)', async () => {
    const res = await fetch(`${on.base}/right`);
    expect(res.status).to.equal(200);
    expect(await res.json()).to.deep.equal({ tags: [{ id: 1, name: 'vip', createdAt: '2025-01-02T03:04:05.000Z' }], count: 1 });
  });

  it('turns an answer its schema refuses into a 500, and logs the route and where the body is wrong', async () => {
    const res = await fetch(`${on.base}/lying`);
    expect(res.status).to.equal(500);
    expect(await res.json()).to.deep.equal({ error: 'Internal server error' });
    const logged = on.lines.find((l) => l.err?.type === 'ResponseSchemaMismatch');
    expect(logged, JSON.stringify(on.lines)).to.not.equal(undefined);
    expect(logged!.err.route).to.equal('GET /lying');
    expect(logged!.err.issues).to.deep.equal([{ path: '$.tags[0].name', message: 'Invalid input: expected string, received number' }]);
    expect(logged!.err.message).to.include('GET /lying').and.include('at $.tags[0].name');
  });

  it('holds a 204 route to answering nothing', async () => {
    expect((await fetch(`${on.base}/nothing`, { method: 'DELETE' })).status).to.equal(204);
    expect((await fetch(`${on.base}/something`, { method: 'DELETE' })).status).to.equal(500);
    expect(on.lines.some((l) => l.err?.route === 'DELETE /something' && /a 204 route answered a body/.test(l.err.message))).to.equal(true);
  });

  it('checks nothing of a route without a response schema, and nothing at all when off', async () => {
    expect((await fetch(`${on.base}/unchecked`)).status).to.equal(200);
    expect((await fetch(`${off.base}/lying`)).status).to.equal(200);
    expect(off.lines).to.deep.equal([]);
  });

  it('lists the routes that still lack a response schema (204 routes declare theirs by their status)', () => {
    expect(routesWithoutResponseSchema(routes)).to.deep.equal(['GET /unchecked']);
  });
});
