import { openDatabase } from '@servicedesk/adapters-persistence';
import path from 'node:path';
import { readConfig } from '../config.js';
import { databaseSchema } from '../modules.js';

/** `npm run migrate`: applies pending migrations to DATABASE_URL (or the embedded database) and exits. */
const config = readConfig();
const db = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pglite'), ...databaseSchema() });
const applied = await db.migrate();
console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
await db.close();
