import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { client, startTestBackend, type TestBackend } from '../support/test-backend.js';

interface SeedRoute {
  method: string;
  path: string;
  auth: string;
  group: string;
}

/** The seed's inventory: 339 routes with their auth class. */
function seedRoutes(): SeedRoute[] {
  const file = new URL('../../../../spec/routes.tsv', import.meta.url);
  const [, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  return lines.map((l) => {
    const [method, path, auth, group] = l.split('\t') as [string, string, string, string];
    return { method, path, auth, group };
  });
}

/** `none` routes that check a credential of their own (refresh cookie, webhook signature, shared secret) and so answer 401 without it. */
const OWN_CREDENTIAL = new Set([
  'POST /auth/refresh_token',
  'POST /',
  'POST /webhook/',
  'POST /api/chatapp-microservice/webhook',
  'POST /subscription/create/webhook',
  'POST /subscription/return/<RETURN_TOKEN>/pix',
]);

describe('HTTP: every registered route has the seed auth class', () => {
  let b: TestBackend;
  const seed = seedRoutes();
  const byKey = new Map(seed.map((r) => [`${r.method} ${r.path}`, r]));
  before(async () => {
    b = await startTestBackend();
  });
  after(async () => {
    await b.close();
  });

  it('registers only routes of the inventory, each with its auth class', () => {
    const registered = b.http.routes.map((r) => ({ key: `${r.method} ${r.path}`, auth: r.auth }));
    for (const r of registered) {
      expect(byKey.has(r.key), `${r.key} is not in routes.tsv`).to.equal(true);
      expect(r.auth, r.key).to.equal(byKey.get(r.key)!.auth);
    }
    expect(new Set(registered.map((r) => r.key)).size).to.equal(registered.length);
    const groups = new Map<string, { done: number; total: number }>();
    for (const r of seed) {
      const g = groups.get(r.group) ?? { done: 0, total: 0 };
      g.total++;
      if (registered.some((x) => x.key === `${r.method} ${r.path}`)) g.done++;
      groups.set(r.group, g);
    }
    console.log(`      registered ${registered.length} of ${seed.length} routes`);
    for (const [group, g] of groups) if (g.done) console.log(`        ${group}: ${g.done}/${g.total}`);
  });

  it('guarded routes answer 401 without a token; public routes never do', async () => {
    const anonymous = client(b.url);
    for (const r of b.http.routes) {
      const url = r.path.replace(/:(\w+)/g, '1');
      const res = await anonymous.call(r.method, url, r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
      const key = `${r.method} ${r.path}`;
      if (r.auth === 'none' && !OWN_CREDENTIAL.has(key)) expect(res.status, key).to.not.equal(401);
      else expect(res.status, key).to.equal(401);
      if (res.status >= 400) expect(res.body, key).to.have.property('error').that.is.a('string');
    }
  });

  it('tolerates a trailing slash, or its absence, on every route (`/chatapp` is `/chatapp/`)', async () => {
    const anonymous = client(b.url);
    for (const r of b.http.routes.filter((x) => x.path !== '/')) {
      const declared = r.path.replace(/:(\w+)/g, '1');
      const other = declared.endsWith('/') ? declared.slice(0, -1) : `${declared}/`;
      const body = r.method === 'GET' || r.method === 'DELETE' ? undefined : {};
      const [a, c] = [await anonymous.call(r.method, declared, body), await anonymous.call(r.method, other, body)];
      expect(c.status, `${r.method} ${other}`).to.equal(a.status);
      expect(c.body, `${r.method} ${other}`).to.not.deep.equal({ error: 'ERR_ROUTE_NOT_FOUND' });
    }
  });

  it('guarded routes answer 401 to a token of the wrong kind', async () => {
    const wrong = client(b.url, 'not-a-real-token');
    for (const r of b.http.routes.filter((x) => x.auth !== 'none')) {
      const res = await wrong.call(r.method, r.path.replace(/:(\w+)/g, '1'), r.method === 'GET' || r.method === 'DELETE' ? undefined : {});
      expect(res.status, `${r.method} ${r.path}`).to.equal(401);
    }
  });

  it('unknown routes answer 404 with an error body, and there is no /health', async () => {
    for (const path of ['/health', '/nope', '/users/1/nothing']) {
      const res = await client(b.url).get(path);
      expect(res.status, path).to.equal(404);
      expect(res.body).to.deep.equal({ error: 'ERR_ROUTE_NOT_FOUND' });
    }
  });

  it('publishes an OpenAPI 3.1 document of exactly the registered routes', async () => {
    const res = await client(b.url).get('/openapi.json');
    expect(res.status).to.equal(200);
    expect(res.body.openapi).to.equal('3.1.0');
    const documented = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([p, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.sort()).to.deep.equal(b.http.routes.map((r) => `${r.method} ${r.path}`).sort());
  });
});
