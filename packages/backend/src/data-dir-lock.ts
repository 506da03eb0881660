import { mkdir, open, readFile, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { StartupError } from '@servicedesk/channel-runtime';

export interface DataDirLock {
  release(): Promise<void>;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists, it is only someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes DATA_DIR for this process: the embedded PGlite is one process's, and a second one on the
 * same files loses the first one's writes. The lock is a file created exclusively (`wx`) holding
 * the owner's pid and host; a lock left by a dead process of this host (kill -9) is taken over,
 * one of another host or of a live process refuses the start.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  await mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'servicedesk.lock');
  const me = { pid: process.pid, host: hostname() };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(JSON.stringify(me));
      await handle.close();
      return {
        async release() {
          const holder = await readFile(file, 'utf8').catch(() => '');
          if (holder === JSON.stringify(me)) await unlink(file).catch(() => undefined);
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const raw = await readFile(file, 'utf8').catch(() => null);
    if (raw === null) continue; // released meanwhile
    let holder: { pid?: unknown; host?: unknown } = {};
    try {
      holder = JSON.parse(raw) as typeof holder;
    } catch {
      /* half-written by a process that died: stale */
    }
    // Empty or unreadable: a process died while writing it.
    const stale = holder.host === undefined || (holder.host === me.host && typeof holder.pid === 'number' && !alive(holder.pid));
    if (!stale) {
      throw new StartupError(
        'DATA_DIR',
        `${dataDir} is in use by process ${String(holder.pid)} on ${String(holder.host)}: ` +
          `one instance per embedded data directory (stop it or use another DATA_DIR; remove ${file} if that process is gone)`,
      );
    }
    await unlink(file).catch(() => undefined);
  }
  throw new StartupError('DATA_DIR', `could not take the lock file ${file}`);
}
