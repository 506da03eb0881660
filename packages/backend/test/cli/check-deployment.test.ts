import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { builtEntry } from '../processes/processes.js';
import { ADMIN, startTestBackend, type TestBackend } from '../support/test-backend.js';

const SCRIPT = fileURLToPath(new URL('../../src/cli/check-deployment.ts', import.meta.url));

function run(args: string[]): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [builtEntry(SCRIPT), ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, out: stdout + stderr });
    });
  });
}

describe('npm run check:deployment', function () {
  this.timeout(90_000);
  let b: TestBackend;
  before(async () => {
    b = await startTestBackend({ CHATAPP_MICROSERVICE_SECRET: 'check-secret-0123456789', OUTBOX_RELAY_INTERVAL_MS: '100' });
  });
  after(async () => {
    await b.close();
  });

  it('passes every step of the first start-up checklist against a healthy backend', async () => {
    const { code, out } = await run(['--url', b.url, '--email', ADMIN.email, '--password', ADMIN.password, '--webhook-secret', 'check-secret-0123456789']);
    expect(out).to.include('all steps passed');
    expect(out.match(/^PASS /gm)).to.have.length(7);
    expect(code).to.equal(0);
  });

  it('fails with what to do when the backend is not there, and when the login is wrong', async () => {
    const down = await run(['--url', 'http://127.0.0.1:9', '--timeout', '2000']);
    expect(down.code).to.equal(1);
    expect(down.out).to.match(/FAIL {2}backend online[\s\S]*what to do: start the backend/);
    const wrong = await run(['--url', b.url, '--email', ADMIN.email, '--password', 'wrong-password']);
    expect(wrong.code).to.equal(1);
    expect(wrong.out).to.match(/FAIL {2}migrations, seeds and admin login — POST \/auth\/login answered 401/);
  });

  it('tells how to replace the built-in password when the admin still has it, instead of advising a migration', async () => {
    const fresh = await startTestBackend({ ADMIN_PASSWORD: '' });
    try {
      const { code, out } = await run(['--url', fresh.url, '--email', ADMIN.email, '--password', '123456']);
      expect(code).to.equal(1);
      expect(out).to.match(/FAIL {2}migrations, seeds and admin login — the admin still has the built-in password/);
      expect(out).to.match(/what to do: replace it: PUT http:\/\/[^ ]+\/users\/\d+ with \{"password"[\s\S]*--password <new password>/);
      expect(out).not.to.match(/npm run seed/);
    } finally {
      await fresh.close();
    }
  });
});
