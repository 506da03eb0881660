import { expect } from 'chai';
import { BACKEND_ENV_FILE, RUNTIME_ENV_FILE } from '../src/deploy.js';
import { parseEnvFile, readEnvFile } from '../src/env-file.js';

describe('channel-runtime-deployment configuration files', () => {
  it('parses KEY=value lines, skipping comments and blank lines', () => {
    const vars = parseEnvFile(
      [
        '# a comment',
        '',
        '   # an indented comment',
        'A=1',
        'export B=two words',
        'C="quoted # not a comment"',
        "D='single'",
        'E=',
        'F=a=b',
        '  G = spaced  ',
      ].join('\n'),
    );
    expect(vars).to.deep.equal({ A: '1', B: 'two words', C: 'quoted # not a comment', D: 'single', E: '', F: 'a=b', G: 'spaced' });
  });

  it('refuses a line that is not KEY=value, naming the file and the line', () => {
    expect(() => parseEnvFile('A=1\nnot a setting\n', 'x.env')).to.throw('x.env:2: expected KEY=value');
    expect(() => parseEnvFile('1A=1', 'x.env')).to.throw('x.env:1');
  });

  it('runtime.env configures a standalone sandbox runtime with its own instance id and nothing of the backend', async () => {
    const runtime = await readEnvFile(RUNTIME_ENV_FILE);
    expect(runtime).to.include({ CHANNEL_CONNECTORS: 'sandbox', SANDBOX_ECHO: 'true', RUNTIME_INSTANCE_ID: 'runtime-a' });
    for (const key of ['DATABASE_URL', 'BROKER_URL', 'LEASE_TTL_MS', 'SESSION_SYNC_INTERVAL_MS', 'DATA_DIR']) expect(runtime, key).to.have.property(key);
    for (const key of ['JWT_SECRET', 'ADMIN_PASSWORD', 'PORT', 'REDIS_URL']) expect(runtime, key).not.to.have.property(key);
  });

  it('backend.env configures a backend that expects the runtime apart', async () => {
    const backend = await readEnvFile(BACKEND_ENV_FILE);
    expect(backend).to.include({ CHANNEL_RUNTIME: 'external' });
    for (const key of ['DATABASE_URL', 'BROKER_URL', 'JWT_SECRET', 'ADMIN_PASSWORD', 'PORT', 'DATA_DIR']) expect(backend, key).to.have.property(key);
    expect(backend.JWT_SECRET!.length).to.be.at.least(32);
    for (const key of ['RUNTIME_INSTANCE_ID', 'SANDBOX_ECHO', 'LEASE_TTL_MS']) expect(backend, key).not.to.have.property(key);
    // The runtime and the backend must agree on how long a send may wait.
    expect(backend.SEND_DEADLINE_MS).to.equal((await readEnvFile(RUNTIME_ENV_FILE)).SEND_DEADLINE_MS);
  });
});
