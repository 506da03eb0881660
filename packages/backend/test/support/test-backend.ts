import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LocalDiskBlobStorage } from '@servicedesk/adapters-persistence';
import { openPgliteDatabase, openPostgresDatabase, truncate } from '@servicedesk/adapters-persistence/testing';
import { InMemoryCache, InProcessBroker, InProcessRealtimeFanout } from '@servicedesk/core';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { pino } from 'pino';
import { startBackend, type RunningBackend } from '../../src/backend.js';
import { readConfig } from '../../src/config.js';
import { databaseSchema } from '../../src/modules.js';
import { requestScope } from '../../src/container.js';
import type { Feature } from '../../src/modules/feature.js';

export const ADMIN = { email: 'root@example.com', password: 'root-password-1' };
export const COMPANY_TOKEN = 'company-api-token-for-tests-0123456789';

export interface TestBackend extends RunningBackend {
  readonly cache: InMemoryCache;
  /** Empties every table and the cache, then seeds again: each test starts from the same state. */
  reset(): Promise<void>;
}

/**
 * The real backend on an ephemeral port: PGlite in memory (or PostgreSQL when TEST_DATABASE_URL is
 * set), in-memory cache, local-disk blobs in a temp dir. Black-box tests talk to it over HTTP.
 */
export async function startTestBackend(env: Record<string, string> = {}, options: { features?: readonly Feature<any, any>[] } = {}): Promise<TestBackend> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sd-backend-'));
  const config = readConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    COMPANY_TOKEN,
    JWT_SECRET: 'test-secret-test-secret-test-secret-0123',
    FRONTEND_URL: 'http://frontend.test',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const schema = databaseSchema(options.features);
  const db = integrationUrl('TEST_DATABASE_URL') ? await openPostgresDatabase(schema) : await openPgliteDatabase(schema);
  await truncate(db);
  const cache = new InMemoryCache();
  const blobs = new LocalDiskBlobStorage({ root: path.join(dataDir, 'files'), publicBaseUrl: 'http://files.test' });
  const infra = {
    db,
    cache,
    blobs,
    fanout: new InProcessRealtimeFanout(),
    broker: new InProcessBroker(),
    async close() {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  // Every answer is checked against its route's response schema: the whole black-box suite proves the schemas.
  const backend = await startBackend({ ...config, port: 0 }, { logger: pino({ level: 'silent' }), infra, validateResponses: true, features: options.features });
  const seed = () =>
    requestScope(db)(() =>
      backend.app.tenancy.seedPlatform.execute({
        adminEmail: config.adminEmail,
        adminPassword: config.adminPassword,
        passwordIsDefault: config.adminPasswordIsDefault,
      }),
    );
  return {
    ...backend,
    cache,
    async reset() {
      await truncate(db);
      cache.clear();
      await backend.jobs.registerRecurring();
      await seed();
    },
  };
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** A small HTTP client for black-box tests. */
export function client(baseUrl: string, token?: string) {
  async function call<T = any>(method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const init: RequestInit = { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } };
    if (body instanceof FormData) init.body = body;
    else if (typeof body === 'string') {
      init.body = body;
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    } else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    const res = await fetch(`${baseUrl}${url}`, init);
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed as T, headers: res.headers };
  }
  return {
    get: <T = any>(url: string, headers?: Record<string, string>) => call<T>('GET', url, undefined, headers),
    post: <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => call<T>('POST', url, body ?? {}, headers),
    put: <T = any>(url: string, body?: unknown, headers?: Record<string, string>) => call<T>('PUT', url, body ?? {}, headers),
    delete: <T = any>(url: string, headers?: Record<string, string>) => call<T>('DELETE', url, undefined, headers),
    call,
  };
}

export async function login(baseUrl: string, email: string, password: string) {
  const res = await client(baseUrl).post('/auth/login', { email, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.token as string, user: res.body.user, cookie: res.headers.get('set-cookie') ?? '' };
}

/** Logs the seeded super admin in and returns a client with its token. */
export async function asSuper(b: TestBackend) {
  const { token, user } = await login(b.url, ADMIN.email, ADMIN.password);
  return { api: client(b.url, token), token, user };
}

let counter = 0;
/** Creates a company (with its admin) through the API and logs that admin in. */
export async function newCompanyWithAdmin(b: TestBackend, overrides: Record<string, unknown> = {}) {
  const { api } = await asSuper(b);
  const n = ++counter;
  const email = `admin${n}@company${n}.test`;
  const res = await api.post('/companies', { name: `Company ${n}`, email, planId: 1, password: 'admin-password-1', ...overrides });
  if (res.status !== 201) throw new Error(`company creation failed: ${res.status} ${JSON.stringify(res.body)}`);
  const session = await login(b.url, (overrides.adminEmail as string) ?? email, 'admin-password-1');
  return { company: res.body.company, admin: session.user, token: session.token, api: client(b.url, session.token) };
}
