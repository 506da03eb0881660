import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { StartupError } from '@servicedesk/channel-runtime';
import { lockDataDir } from '../../src/data-dir-lock.js';

describe('DATA_DIR lock of the embedded database', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'sd-lock-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a second holder while the first lives, naming DATA_DIR, and is free again once released', async () => {
    const first = await lockDataDir(dir);
    const err = await lockDataDir(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(StartupError);
    expect((err as StartupError).setting).to.equal('DATA_DIR');
    expect((err as Error).message)
      .to.contain(dir)
      .and.contain(String(process.pid));
    await first.release();
    const again = await lockDataDir(dir);
    await again.release();
    expect(existsSync(path.join(dir, 'servicedesk.lock'))).to.equal(false);
  });

  it('takes over the lock of a process of this host that died (kill -9)', async () => {
    const child = spawn(process.execPath, ['-e', '0']);
    const pid = child.pid!;
    await new Promise((r) => child.once('exit', r));
    writeFileSync(path.join(dir, 'servicedesk.lock'), JSON.stringify({ pid, host: os.hostname() }));
    const lock = await lockDataDir(dir);
    expect(JSON.parse(readFileSync(path.join(dir, 'servicedesk.lock'), 'utf8')).pid).to.equal(process.pid);
    await lock.release();
  });

  it('takes over an empty lock file (a process died while writing it)', async () => {
    writeFileSync(path.join(dir, 'servicedesk.lock'), '');
    await (await lockDataDir(dir)).release();
  });

  it('refuses a lock held on another host', async () => {
    writeFileSync(path.join(dir, 'servicedesk.lock'), JSON.stringify({ pid: 1, host: 'elsewhere.example' }));
    const err = await lockDataDir(dir).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).to.be.instanceOf(StartupError);
  });
});
