import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

describe('swap-adapters main (child process)', () => {
  it('runs the scenario on both adapter sets, prints the comparison and exits 0', async function () {
    // A child process that starts PGlite: seconds, more on a loaded machine.
    this.timeout(60_000);
    this.slow(10_000);
    const { code, stdout, stderr } = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], { cwd: EXAMPLE_DIR, timeout: 50_000 }, (err, out, errOut) => {
        resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout: out, stderr: errOut });
      });
    });
    expect(code, stderr).to.equal(0);
    expect(stdout).to.match(/^ +in-memory +PGlite$/m);
    expect(stdout).to.match(/^tickets +1 +1$/m);
    expect(stdout).to.match(/^sendCommandsAtBroker +2 +2$/m);
    expect(stdout).to.contain('Same outcome on every adapter set.');
  });
});
