import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { builtEntry } from '../processes/processes.js';
import { expect } from 'chai';
import pg from 'pg';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const MIGRATE = fileURLToPath(new URL('../../src/cli/migrate.ts', import.meta.url));
const RUNTIME_MAIN = fileURLToPath(new URL('../../../channel-runtime/src/main.ts', import.meta.url));
const SECRET = 'a-secret-of-at-least-thirty-two-characters';

interface Outcome {
  code: number | null;
  output: string;
  lines: string[];
}

/** Starts an executable with only `env` (and PATH), waits for it to end, and keeps what it printed. */
function run(entry: string, env: Record<string, string>, args: string[] = []): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [builtEntry(entry), ...args],
      {
        timeout: 60_000,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'info', ...env },
      },
      (err, stdout, stderr) => {
        const output = `${stdout}${stderr}`;
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, output, lines: output.split('\n').filter(Boolean) });
      },
    );
  });
}

/** Exit 1 with one line `startup failed: <setting>: <reason>` and no stack trace. */
function expectStartupFailure(outcome: Outcome, setting: string, reason: RegExp) {
  expect(outcome.code, outcome.output).to.equal(1);
  const failures = outcome.lines.filter((l) => l.includes('startup failed'));
  expect(failures, outcome.output).to.have.length(1);
  expect(failures[0]).to.match(new RegExp(`^startup failed: ${setting}: `));
  expect(failures[0]!.slice(`startup failed: ${setting}: `.length)).to.match(reason);
  expect(outcome.output, 'no stack trace').not.to.match(/^\s+at /m);
}

describe('CLI: the backend refuses to start on a bad configuration, with one line', function () {
  this.timeout(90_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'sd-startup-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a short JWT_SECRET', async () => {
    expectStartupFailure(
      await run(MAIN, { DATABASE_URL: 'postgres://127.0.0.1:1/x', JWT_SECRET: 'short', DATA_DIR: dir }),
      'JWT_SECRET',
      /must be at least 32 characters/,
    );
  });

  it('a missing JWT_SECRET with DATABASE_URL, and values that are not what they say', async () => {
    expectStartupFailure(await run(MAIN, { DATABASE_URL: 'postgres://127.0.0.1:1/x', DATA_DIR: dir }), 'JWT_SECRET', /required when DATABASE_URL is set/);
    expectStartupFailure(await run(MAIN, { PORT: 'eighty', DATA_DIR: dir }), 'PORT', /whole number/);
    expectStartupFailure(await run(MAIN, { DATABASE_URL: 'mysql://x', JWT_SECRET: SECRET, DATA_DIR: dir }), 'DATABASE_URL', /postgres:\/\//);
    expectStartupFailure(await run(MAIN, { NATS_PREFIX: 'a.b', DATA_DIR: dir }), 'NATS_PREFIX', /letters, digits/);
  });

  it('a PORT in use, before any migration runs', async () => {
    const blocker: Server = createServer();
    const port = await new Promise<number>((resolve) => blocker.listen(0, '127.0.0.1', () => resolve((blocker.address() as { port: number }).port)));
    const dataDir = path.join(dir, 'port-in-use');
    try {
      expectStartupFailure(await run(MAIN, { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir }), 'PORT', /in use/);
      expect(existsSync(path.join(dataDir, 'pglite')), 'no database was opened').to.equal(false);
    } finally {
      blocker.close();
    }
  });

  it('an unreachable DATABASE_URL', async () => {
    expectStartupFailure(
      await run(MAIN, { PORT: '0', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x', JWT_SECRET: SECRET, DATA_DIR: dir }),
      'DATABASE_URL',
      /cannot connect|ECONNREFUSED/,
    );
  });

  it('a DATABASE_URL naming a database that does not exist: nothing is created, and npm run migrate -- --create-database creates it on purpose', async function () {
    const base = integrationUrl('TEST_DATABASE_URL');
    if (!base) this.skip();
    const name = `sd_missing_${process.pid}_${Date.now().toString(36)}`;
    const url = new URL(base!);
    url.pathname = `/${name}`;
    const exists = async () => {
      const client = new pg.Client({ connectionString: base! });
      await client.connect();
      try {
        return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
      } finally {
        await client.end();
      }
    };
    try {
      expectStartupFailure(
        await run(MAIN, { PORT: '0', DATABASE_URL: url.toString(), JWT_SECRET: SECRET, DATA_DIR: dir }),
        'DATABASE_URL',
        new RegExp(`database "${name}" does not exist.*--create-database`),
      );
      expect(await exists(), 'the start created nothing').to.equal(false);
      const migrated = await run(MIGRATE, { DATABASE_URL: url.toString(), JWT_SECRET: SECRET, DATA_DIR: dir });
      expect(migrated.code, migrated.output).to.equal(1);
      expect(await exists(), 'a plain migrate created nothing either').to.equal(false);
      const created = await run(MIGRATE, { DATABASE_URL: url.toString(), JWT_SECRET: SECRET, DATA_DIR: dir }, ['--create-database']);
      expect(created.code, created.output).to.equal(0);
      expect(created.output).to.match(/applied: m0001/);
      expect(await exists()).to.equal(true);
    } finally {
      const client = new pg.Client({ connectionString: base! });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    }
  });

  it('an unwritable DATA_DIR', async () => {
    const file = path.join(dir, 'a-file');
    await writeFile(file, 'not a directory');
    expectStartupFailure(await run(MAIN, { PORT: '0', DATA_DIR: path.join(file, 'data') }), 'DATA_DIR', /not writable/);
  });

  it('an unreachable BROKER_URL', async () => {
    expectStartupFailure(await run(MAIN, { PORT: '0', BROKER_URL: 'nats://127.0.0.1:1', DATA_DIR: path.join(dir, 'broker') }), 'BROKER_URL', /cannot connect/);
  });

  it('the channel runtime alike: an unreachable BROKER_URL and a bad number', async () => {
    expectStartupFailure(await run(RUNTIME_MAIN, { BROKER_URL: 'nats://127.0.0.1:1', DATA_DIR: path.join(dir, 'runtime') }), 'BROKER_URL', /cannot connect/);
    expectStartupFailure(
      await run(RUNTIME_MAIN, { BROKER_URL: 'nats://127.0.0.1:1', LEASE_TTL_MS: '-5', DATA_DIR: dir }),
      'LEASE_TTL_MS',
      /positive whole number/,
    );
  });
});
