import type { PGlite } from '@electric-sql/pglite';
import { openDatabase, type Database, type DatabaseOptions } from '@servicedesk/adapters-persistence';
import { CHANNEL_MIGRATIONS, CHANNEL_MIGRATIONS_TABLE } from './channel-migrations.js';
import { CHANNEL_SCHEMAS } from './channel-schemas.js';

/** What makes a database the channel component's: its entities, migrations and migration history. */
export const CHANNEL_DATABASE_OPTIONS = {
  entities: CHANNEL_SCHEMAS,
  migrations: CHANNEL_MIGRATIONS,
  migrationsTable: CHANNEL_MIGRATIONS_TABLE,
} satisfies Partial<DatabaseOptions>;

export interface ChannelDatabaseOptions {
  /** `postgres://...` selects PostgreSQL (it may be the backend's server and database); else embedded PGlite. */
  readonly url?: string;
  /** Where PGlite keeps its files; omitted means in memory. */
  readonly dataDir?: string;
  /** A running PGlite to borrow. */
  readonly pglite?: PGlite;
  readonly poolMax?: number;
}

export type ChannelDatabase = Database;

/** Opens the channel component's database (not yet migrated: call `migrate()`). */
export function openChannelDatabase(options: ChannelDatabaseOptions = {}): Promise<ChannelDatabase> {
  return openDatabase({ ...options, ...CHANNEL_DATABASE_OPTIONS });
}
