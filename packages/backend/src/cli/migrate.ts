import path from 'node:path';
import { openDatabase } from '@servicedesk/adapters-persistence';
import { during, exitOnStartupFailure } from '@servicedesk/channel-runtime';
import { readConfig } from '../config.js';
import { lockDataDir } from '../data-dir-lock.js';
import { databaseSchema } from '../modules.js';

/**
 * `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded database) and exits.
 * Failures are one line and exit 1, as at start-up; the embedded database is locked like the backend
 * locks it, so migrating next to a running instance is refused instead of corrupting it.
 * `--create-database` creates the database named in DATABASE_URL first when it does not exist (the
 * start never does: a typo in the name would open an empty platform).
 */
async function migrate() {
  const config = readConfig();
  const lock = config.databaseUrl ? null : await lockDataDir(config.dataDir);
  try {
    const db = await during(config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR', 'cannot open the database', () =>
      openDatabase({
        url: config.databaseUrl,
        createDatabase: process.argv.includes('--create-database'),
        dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pglite'),
        ...databaseSchema(),
      }),
    );
    try {
      const applied = await during(config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR', 'cannot migrate', () => db.migrate());
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
    } finally {
      await db.close();
    }
  } finally {
    await lock?.release();
  }
}

await migrate().catch(exitOnStartupFailure);
