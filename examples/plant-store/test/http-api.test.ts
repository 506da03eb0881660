import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { InMemoryPlants } from '../src/adapters/in-memory-plants.js';
import type { Plants } from '../src/core/plants-port.js';
import { createPlantStoreApp } from '../src/http/app.js';
import { assertMatchesOpenApi, openApiDocument } from './openapi-validator.js';

const TOKEN = 'test-token-0123456789';
const SEED = [
  { name: 'Monstera', tag: 'tropical' },
  { name: 'Fern', tag: 'shade' },
  { name: 'Cactus', tag: 'succulent' },
  { name: 'Lavender', tag: 'herb' },
  { name: 'Snake plant' },
];

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: unknown;
}

describe('plant-store HTTP API (black box, validated against openapi.json)', () => {
  let server: Server;
  let baseUrl: string;

  async function start(plants: Plants, configure: (app: ReturnType<typeof createPlantStoreApp>) => void = () => {}) {
    const app = createPlantStoreApp({ plants, token: TOKEN });
    configure(app);
    server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  /** Every reply goes through the OpenAPI check before a test sees it. */
  async function call(method: string, url: string, authorization: string | null = `Bearer ${TOKEN}`): Promise<Reply> {
    const response = await fetch(baseUrl + url, { method, headers: authorization === null ? {} : { authorization } });
    const text = await response.text();
    assertMatchesOpenApi({ method, url, status: response.status, headers: response.headers, text });
    return { status: response.status, headers: response.headers, text, body: text === '' ? undefined : JSON.parse(text) };
  }

  function expectError(reply: Reply, status: number): void {
    expect(reply.status).to.equal(status);
    expect(reply.headers.get('content-type')).to.match(/^application\/json/);
    expect(reply.body).to.have.property('error', status);
    expect(reply.body).to.have.property('message').that.is.a('string').and.not.empty;
  }

  beforeEach(() => start(new InMemoryPlants(SEED)));
  afterEach(() => {
    server.closeAllConnections();
    server.close();
  });

  describe('GET /plants', () => {
    it('lists all plants with their ids, in insertion order', async () => {
      const reply = await call('GET', '/plants');
      expect(reply.status).to.equal(200);
      expect(reply.body).to.deep.equal([
        { id: 1, name: 'Monstera', tag: 'tropical' },
        { id: 2, name: 'Fern', tag: 'shade' },
        { id: 3, name: 'Cactus', tag: 'succulent' },
        { id: 4, name: 'Lavender', tag: 'herb' },
        { id: 5, name: 'Snake plant' },
      ]);
    });

    it('limit=2 returns the first two', async () => {
      const reply = await call('GET', '/plants?limit=2');
      expect(reply.status).to.equal(200);
      expect(reply.body).to.deep.equal([
        { id: 1, name: 'Monstera', tag: 'tropical' },
        { id: 2, name: 'Fern', tag: 'shade' },
      ]);
    });

    it('limit=0 returns an empty array', async () => {
      const reply = await call('GET', '/plants?limit=0');
      expect(reply.status).to.equal(200);
      expect(reply.body).to.deep.equal([]);
    });

    it('limit at the int32 maximum is valid and returns everything', async () => {
      const reply = await call('GET', '/plants?limit=2147483647');
      expect(reply.status).to.equal(200);
      expect(reply.body).to.have.length(5);
    });

    for (const limit of ['abc', '1.5', '-1', '2147483648', '', '1e2', '0x10', ' 1']) {
      it(`limit=${JSON.stringify(limit)} → 400 Error`, async () => {
        const reply = await call('GET', `/plants?limit=${encodeURIComponent(limit)}`);
        expectError(reply, 400);
        expect(reply.body).to.have.property('message').that.includes('limit');
      });
    }

    it('a repeated limit → 400 Error', async () => {
      expectError(await call('GET', '/plants?limit=1&limit=2'), 400);
    });
  });

  describe('authentication', () => {
    it('missing token → 401 Error with WWW-Authenticate: Bearer', async () => {
      const reply = await call('GET', '/plants', null);
      expectError(reply, 401);
      expect(reply.headers.get('www-authenticate')).to.match(/^Bearer\b/);
    });

    it('wrong token → 401 Error with WWW-Authenticate: Bearer', async () => {
      const reply = await call('GET', '/plants', 'Bearer not-the-token');
      expectError(reply, 401);
      expect(reply.headers.get('www-authenticate')).to.match(/^Bearer\b.*invalid_token/);
    });

    for (const [label, header] of [
      ['a prefix of the token', `Bearer ${TOKEN.slice(0, 4)}`],
      ['the token plus extra characters', `Bearer ${TOKEN}x`],
      ['another scheme', `Basic ${TOKEN}`],
      ['the bare token', TOKEN],
      ['an empty bearer', 'Bearer '],
    ] as const) {
      it(`${label} → 401`, async () => expectError(await call('GET', '/plants', header), 401));
    }

    it('accepts the scheme name case-insensitively', async () => {
      expect((await call('GET', '/plants', `bearer ${TOKEN}`)).status).to.equal(200);
    });

    it('DELETE without a token → 401 and deletes nothing', async () => {
      expectError(await call('DELETE', '/plants/1', null), 401);
      expect(await call('GET', '/plants'))
        .to.have.property('body')
        .with.length(5);
    });

    it('unknown routes also require the token (nothing to probe without it)', async () => {
      expectError(await call('GET', '/nope', null), 401);
    });
  });

  describe('DELETE /plants/{id}', () => {
    it('deletes an existing plant → 204 with no body, and it is gone from the list', async () => {
      const reply = await call('DELETE', '/plants/2');
      expect(reply.status).to.equal(204);
      expect(reply.text).to.equal('');
      const list = await call('GET', '/plants');
      expect((list.body as { id: number }[]).map((plant) => plant.id)).to.deep.equal([1, 3, 4, 5]);
    });

    it('deleting the same id again → 404 Error', async () => {
      expect((await call('DELETE', '/plants/2')).status).to.equal(204);
      expectError(await call('DELETE', '/plants/2'), 404);
    });

    it('an id that never existed → 404 Error', async () => {
      expectError(await call('DELETE', '/plants/999'), 404);
    });

    for (const id of ['abc', '0', '00', '-1', '1.5', '1e3', '2147483648', '%20']) {
      it(`malformed id ${JSON.stringify(id)} → 400 Error`, async () => {
        const reply = await call('DELETE', `/plants/${id}`);
        expectError(reply, 400);
        expect(reply.body).to.have.property('message').that.includes('id');
      });
    }
  });

  describe('failures outside the documented operations', () => {
    it('unknown route → 404 Error', async () => {
      expectError(await call('GET', '/nope'), 404);
    });

    it('wrong method → 405 Error with Allow', async () => {
      const reply = await call('PUT', '/plants');
      expectError(reply, 405);
      expect(reply.headers.get('allow')).to.include('GET');
    });

    it('an unexpected exception → 500 Error without internal details', async () => {
      const failing: Plants = {
        list: () => Promise.reject(new Error('connection refused to db.internal:5432')),
        remove: () => Promise.reject(new Error('boom')),
        add: () => Promise.reject(new Error('boom')),
      };
      server.close();
      // Silence Koa's default logging of the deliberate error.
      await start(failing, (app) => {
        app.silent = true;
      });
      for (const [method, url] of [
        ['GET', '/plants'],
        ['DELETE', '/plants/1'],
      ] as const) {
        const reply = await call(method, url);
        expectError(reply, 500);
        expect(reply.text).to.not.include('db.internal').and.not.include('boom');
      }
    });
  });

  describe('GET /openapi.json', () => {
    it('is served without a token and is the checked-in document', async () => {
      const reply = await call('GET', '/openapi.json', null);
      expect(reply.status).to.equal(200);
      expect(reply.body).to.have.property('openapi', '3.1.0');
      expect(reply.body).to.have.nested.property('info.version', '1.0.0');
      expect(reply.body).to.have.nested.property('info.license.identifier', 'MIT');
      expect(reply.body).to.deep.equal(openApiDocument);
    });

    it('other methods on it still require the token', async () => {
      expectError(await call('POST', '/openapi.json', null), 401);
      expectError(await call('POST', '/openapi.json'), 405);
    });
  });
});
