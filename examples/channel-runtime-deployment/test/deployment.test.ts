import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { RUNTIME_ENV_FILE, runDeployment } from '../src/deploy.js';
import { readEnvFile } from '../src/env-file.js';
import { freshDatabase, natsServerBinary, PrivateNatsServer, type FreshDatabase } from '../src/processes.js';

/**
 * The deployment for real: backend and channel runtime as two processes from source, on a private
 * nats-server (streams of its own) and a fresh PostgreSQL database.
 */
describe("channel runtime deployed alone, serving the backend's sandbox sessions", function () {
  this.timeout(120_000);
  this.slow(30_000);
  const serverUrl = integrationUrl('TEST_DATABASE_URL');
  let nats: PrivateNatsServer | undefined;
  let database: FreshDatabase | undefined;
  const output: string[] = [];

  before(async function () {
    if (!serverUrl) return this.skip();
    const binary = natsServerBinary();
    if (!binary) {
      if (process.env.CI === 'true') throw new Error('nats-server must be installed in CI (.ci/run installs it)');
      return this.skip();
    }
    nats = await PrivateNatsServer.start(binary);
    database = await freshDatabase(serverUrl);
  });

  after(async () => {
    await database?.drop();
    await nats?.stop();
  });

  afterEach(function () {
    // The processes' own words are the quickest way to see why a run failed.
    if (this.currentTest?.state === 'failed') console.error(output.slice(-60).join('\n'));
  });

  it('connects, delivers a send to "read" and stores the echo, on the instance named in runtime.env', async () => {
    const body = `deployment test ${Date.now()}`;
    const result = await runDeployment({
      databaseUrl: database!.url,
      brokerUrl: nats!.url,
      body,
      stepTimeoutMs: 90_000,
      onOutput: (service, line) => output.push(`${service} | ${line}`),
    });
    const { RUNTIME_INSTANCE_ID } = await readEnvFile(RUNTIME_ENV_FILE);
    expect(RUNTIME_INSTANCE_ID).to.be.a('string').and.not.equal('');
    expect(result.status).to.equal('read');
    expect(result.leaseOwner).to.equal(RUNTIME_INSTANCE_ID);
    expect(result.reply).to.equal(`Re: ${body}`);
    expect(result.connectionId).to.be.a('number');
    expect(result.messageId).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    // The runtime ran under its own configuration: its log names the instance from runtime.env.
    expect(
      output.some((l) => l.startsWith('runtime | ') && l.includes('"msg":"channel runtime online"') && l.includes(`"instance":"${RUNTIME_INSTANCE_ID}"`)),
    ).to.equal(true);
    // Both processes were stopped: nothing answers on the backend's port any more.
    const after = await fetch(`${result.backendUrl}/version`).then(
      () => 'answered',
      () => 'refused',
    );
    expect(after).to.equal('refused');
  });
});

describe('runDeployment configuration checks', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sd-deploy-config-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a runtime.env without SANDBOX_ECHO=true before starting anything', async () => {
    const runtimeEnvFile = path.join(dir, 'runtime.env');
    await writeFile(runtimeEnvFile, (await readFile(RUNTIME_ENV_FILE, 'utf8')).replace(/^SANDBOX_ECHO=.*$/m, '# no echo'));
    const err = await runDeployment({ databaseUrl: 'postgres://unused', brokerUrl: 'nats://unused', runtimeEnvFile }).then(
      () => null,
      (e: Error) => e,
    );
    expect(err?.message).to.contain('SANDBOX_ECHO=true');
  });
});
