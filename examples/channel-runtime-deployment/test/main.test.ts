import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import pg from 'pg';
import { integrationUrl } from '@servicedesk/core/contracts/integration-env';
import { natsServerBinary } from '../src/processes.js';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Runs src/main.ts as `npm start` does, with exactly `env` (plus PATH and HOME). */
function runMain(env: Record<string, string>, timeout: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', 'src/main.ts'],
      {
        cwd: EXAMPLE_DIR,
        timeout,
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      },
      (err, stdout, stderr) => resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

describe('channel-runtime-deployment main (child process)', function () {
  this.timeout(120_000);

  it('exits 2 with a clear message without DATABASE_URL', async () => {
    const { code, stderr } = await runMain({}, 60_000);
    expect(code).to.equal(2);
    expect(stderr).to.contain('DATABASE_URL is required');
  });

  it('runs the deployment on a private nats-server and a fresh database, prints the result and drops the database', async function () {
    this.slow(30_000);
    const serverUrl = integrationUrl('TEST_DATABASE_URL');
    if (!serverUrl) return this.skip();
    if (!natsServerBinary()) {
      if (process.env.CI === 'true') throw new Error('nats-server must be installed in CI (.ci/run installs it)');
      return this.skip();
    }
    const { code, stdout, stderr } = await runMain({ DATABASE_URL: serverUrl }, 110_000);
    expect(code, stdout + stderr).to.equal(0);
    expect(stdout).to.match(/^nats: started a private .*nats-server -js on nats:\/\/127\.0\.0\.1:\d+$/m);
    expect(stdout).to.match(/^ {2}message +\S+ in ticket #\d+: read$/m);
    expect(stdout).to.match(/^ {2}lease owner +runtime-a$/m);
    expect(stdout).to.match(/^ {2}reply +Re: Hello from the channel-runtime deployment example/m);
    const name = /^database: created (\S+)$/m.exec(stdout)?.[1];
    expect(stdout).to.contain(`database: dropped ${name}`);
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      expect((await client.query('select 1 from pg_database where datname = $1', [name])).rowCount).to.equal(0);
    } finally {
      await client.end();
    }
  });
});
