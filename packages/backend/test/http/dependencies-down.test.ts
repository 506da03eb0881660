import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { startBackend, type RunningBackend } from '../../src/backend.js';
import { readConfig } from '../../src/config.js';
import { ADMIN, client } from '../support/test-backend.js';

/** A port nothing listens on: bound for an instant, then released. */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('HTTP: a dependency that is down answers 503, never 500', function () {
  this.timeout(60_000);
  let b: RunningBackend;
  let dataDir: string;
  const printed: unknown[][] = [];
  const consoleError = console.error;

  before(async () => {
    // ioredis prints "[ioredis] Unhandled error event" on console.error when nobody listens for errors.
    console.error = (...args: unknown[]) => {
      printed.push(args);
    };
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'sd-redis-down-'));
    const config = readConfig({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      REDIS_URL: `redis://127.0.0.1:${await closedPort()}`,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'silent',
    });
    b = await startBackend(config, { logger: pino({ level: 'silent' }) });
  });
  after(async () => {
    console.error = consoleError;
    await b?.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('with Redis down: /version answers, login is 503 ERR_CACHE_UNAVAILABLE, /debug-queues reports the cache down with 503', async () => {
    expect((await client(b.url).get('/version')).status).to.equal(200);
    const login = await client(b.url).post('/auth/login', ADMIN);
    expect(login.status, JSON.stringify(login.body)).to.equal(503);
    expect(login.body).to.deep.equal({ error: 'ERR_CACHE_UNAVAILABLE' });
    const health = await client(b.url).get('/debug-queues');
    expect(health.status).to.equal(503);
    expect(health.body).to.include({ status: 'down', error: 'ERR_CACHE_UNAVAILABLE' });
    expect(health.body.database).to.deep.equal({ connected: true });
    expect(health.body.cache).to.deep.equal({ connected: false });
    expect(health.body.broker).to.deep.equal({ connected: true });
    expect(
      printed.filter((args) => String(args[0]).includes('Unhandled error event')),
      'no unhandled Redis error',
    ).to.deep.equal([]);
  });
});
