import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { MikroORM, type EntitySchema, type Options } from '@mikro-orm/core';
import { Migrator } from '@mikro-orm/migrations';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import { PGliteDriver } from 'mikro-orm-pglite';
import { BACKEND_MIGRATIONS } from './migrations/index.js';
import { BACKEND_SCHEMAS } from './schemas/index.js';

export interface DatabaseOptions {
  /** `postgres://...` selects PostgreSQL; without it the embedded PGlite runs in process. */
  readonly url?: string;
  /** Where PGlite keeps its files; omitted means in memory (tests). */
  readonly dataDir?: string;
  /** A running PGlite to borrow (tests share one per run: it takes seconds to start). */
  readonly pglite?: PGlite;
  readonly poolMax?: number;
  readonly debug?: boolean;
  readonly entities?: EntitySchema<any>[];
  readonly migrations?: Array<{ name: string; class: new (...args: any[]) => any }>;
  readonly migrationsTable?: string;
}

export interface Database {
  readonly orm: MikroORM;
  readonly kind: 'postgresql' | 'pglite';
  /** The server URL, when `kind` is postgresql (another component may open its own pool). */
  readonly url?: string;
  /** The embedded engine, when `kind` is pglite (another component may borrow it). */
  readonly pglite?: PGlite;
  migrate(): Promise<string[]>;
  close(): Promise<void>;
}

/** Opens the backend's database: PostgreSQL when a URL is given, else embedded PGlite. Same SQL either way. */
export async function openDatabase(options: DatabaseOptions = {}): Promise<Database> {
  const common: Options = {
    entities: options.entities ?? BACKEND_SCHEMAS,
    discovery: { warnWhenNoEntities: false },
    extensions: [Migrator],
    migrations: {
      migrationsList: options.migrations ?? BACKEND_MIGRATIONS,
      tableName: options.migrationsTable ?? 'mikro_orm_migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      silent: true,
    },
    allowGlobalContext: false,
    debug: options.debug ?? false,
  };
  let orm: MikroORM;
  let ownedPglite: PGlite | undefined;
  let engine: PGlite | undefined;
  if (options.url) {
    orm = await MikroORM.init({
      ...common,
      driver: PostgreSqlDriver,
      clientUrl: options.url,
      pool: { min: 0, max: options.poolMax ?? 10 },
    } as Options);
  } else {
    let pglite = options.pglite;
    if (!pglite) {
      if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
      pglite = ownedPglite = await PGlite.create(options.dataDir);
    }
    const borrowed = pglite;
    engine = pglite;
    orm = await MikroORM.init({
      ...common,
      driver: PGliteDriver,
      dbName: 'postgres',
      driverOptions: { connection: { pglite: () => borrowed } },
    } as Options);
  }
  return {
    orm,
    kind: options.url ? 'postgresql' : 'pglite',
    ...(engine ? { pglite: engine } : {}),
    ...(options.url ? { url: options.url } : {}),
    async migrate() {
      const done = await orm.getMigrator().up();
      return done.map((m) => m.name);
    },
    async close() {
      await orm.close(true);
      if (ownedPglite) await ownedPglite.close();
    },
  };
}
