import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { DEMO } from '../src/embed.js';

const EXAMPLE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Runs a command and resolves with its exit code and output, whatever the code. */
function run(file: string, args: string[], cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, args, { cwd, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

describe('embed-core main (child process)', () => {
  it('prints the ticket and its conversation and exits 0', async () => {
    const { code, stdout, stderr } = await run(process.execPath, ['--conditions=source', '--import', 'tsx', 'src/main.ts'], EXAMPLE_DIR);
    expect(code, stderr).to.equal(0);
    expect(stdout).to.match(/^Tickets +1$/m);
    expect(stdout).to.match(
      new RegExp(`^Ticket +#1 open, contact ${DEMO.contact.name} \\(${DEMO.contact.number}\\), operator ${DEMO.company.adminName}$`, 'm'),
    );
    const conversation = [DEMO.inbound.body, DEMO.connection.greeting, DEMO.reply].map((body) => stdout.indexOf(body));
    expect(
      conversation.every((i) => i > 0),
      stdout,
    ).to.equal(true);
    expect([...conversation].sort((a, b) => a - b)).to.deep.equal(conversation);
    expect(stdout).to.contain('accepted as pending');
  });
});
