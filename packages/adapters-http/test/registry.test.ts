import { createServer, type Server } from 'node:http';
import Router from '@koa/router';
import Koa from 'koa';
import { expect } from 'chai';
import { pino } from 'pino';
import { z } from 'zod';
import { ForbiddenError, UnauthorizedError } from '@servicedesk/core';
import { errorMiddleware, mountRoutes, route, type AccessApi } from '../src/index.js';

/** Just the parts of the application the registry touches. */
function fakeApp(features: Record<string, boolean>): AccessApi {
  return {
    identity: {
      authenticate: {
        execute: async (token?: string) => {
          if (token === 'user') return { actor: { userId: 1, companyId: 1, profile: 'user' }, mustChangePassword: false };
          if (token === 'fresh') return { actor: { userId: 2, companyId: 1, profile: 'admin' }, mustChangePassword: true };
          throw new UnauthorizedError('ERR_SESSION_EXPIRED');
        },
      },
    },
    tenancy: {
      planGuard: {
        assertFeature: async (_c: number, f: string) => {
          if (!features[f]) throw new ForbiddenError('ERR_PLAN_FEATURE_DISABLED');
        },
      },
    },
  } as unknown as AccessApi;
}

describe('HTTP route registry', () => {
  let server: Server;
  let base: string;
  before(async () => {
    const koa = new Koa();
    const router = new Router();
    koa.use(errorMiddleware(pino({ level: 'silent' })));
    mountRoutes(
      router,
      [
        route({ method: 'GET', path: '/kanban', auth: 'isAuth', tag: 't', summary: 's', feature: 'kanban', handler: async () => ({ ok: true }) }),
        route({ method: 'GET', path: '/campaigns', auth: 'isAuth', tag: 't', summary: 's', feature: 'campaigns', handler: async () => ({ ok: true }) }),
        route({
          method: 'POST',
          path: '/items/:id',
          auth: 'isAuth',
          tag: 't',
          summary: 's',
          status: 201,
          params: z.object({ id: z.coerce.number().int().positive() }),
          body: z.object({ name: z.string().min(1) }),
          handler: async ({ params, body }) => ({ id: params.id, name: body.name }),
        }),
        route({ method: 'DELETE', path: '/items/:id', auth: 'isAuth', tag: 't', summary: 's', handler: async () => undefined }),
        route({
          method: 'GET',
          path: '/boom',
          auth: 'none',
          tag: 't',
          summary: 's',
          handler: async () => {
            throw new Error('secret detail');
          },
        }),
      ],
      { app: fakeApp({ kanban: false, campaigns: true }) },
    );
    koa.use(router.routes());
    koa.use(router.allowedMethods());
    server = createServer(koa.callback()).listen(0);
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => {
    server.close();
  });

  const call = async (method: string, path: string, token?: string, body?: string) => {
    const res = await fetch(base + path, {
      method,
      body,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };

  it('refuses a route of a feature the plan lacks with 403, allows one it has', async () => {
    expect(await call('GET', '/kanban', 'user')).to.deep.equal({ status: 403, body: { error: 'ERR_PLAN_FEATURE_DISABLED' } });
    expect(await call('GET', '/campaigns', 'user')).to.deep.equal({ status: 200, body: { ok: true } });
  });

  it('checks the token before anything else, and the password-change gate', async () => {
    expect((await call('GET', '/kanban')).status).to.equal(401);
    expect(await call('GET', '/campaigns', 'fresh')).to.deep.equal({ status: 403, body: { error: 'ERR_PASSWORD_CHANGE_REQUIRED' } });
  });

  it('validates params and body, uses the declared status, and answers 204 for no result', async () => {
    expect(await call('POST', '/items/7', 'user', '{"name":"x"}')).to.deep.equal({ status: 201, body: { id: 7, name: 'x' } });
    const bad = await call('POST', '/items/abc', 'user', '{"name":""}');
    expect(bad.status).to.equal(422);
    expect(bad.body.error).to.equal('ERR_VALIDATION');
    expect(bad.body.fields.map((f: { path: string }) => f.path)).to.deep.equal(['params.id']);
    expect((await call('POST', '/items/7', 'user', '{"name":')).status).to.equal(400);
    expect((await call('DELETE', '/items/7', 'user')).status).to.equal(204);
  });

  it('hides unexpected errors behind a fixed 500 body; unknown methods and routes get error bodies', async () => {
    expect(await call('GET', '/boom')).to.deep.equal({ status: 500, body: { error: 'Internal server error' } });
    expect(await call('PUT', '/kanban', 'user')).to.deep.equal({ status: 405, body: { error: 'ERR_METHOD_NOT_ALLOWED' } });
    expect(await call('GET', '/missing')).to.deep.equal({ status: 404, body: { error: 'ERR_ROUTE_NOT_FOUND' } });
  });
});
