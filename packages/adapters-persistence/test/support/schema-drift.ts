import type { EntityMetadata, MikroORM } from '@mikro-orm/core';

/**
 * Each table is described twice: by its SQL migration (what the database has) and by its entity
 * schema (what MikroORM believes). After migrating a new database, MikroORM's schema diff against
 * the entity schemas must be empty. Only the backend's own schema is compared: other components keep
 * their tables in schemas of their own (the channel runtime's `channel`), and MikroORM leaves out its
 * migrations table by itself.
 */
export async function schemaDiff(orm: MikroORM): Promise<string> {
  const sql = await orm.getSchemaGenerator().getUpdateSchemaSQL({
    wrap: false,
    safe: false, // report what the entities lack too: columns, indexes, constraints to drop
    dropTables: true, // and tables that no entity describes
    schema: backendSchema(orm),
  });
  return sql.trim();
}

export function backendSchema(orm: MikroORM): string {
  return orm.config.get('schema') ?? orm.em.getPlatform().getDefaultSchemaName()!;
}

/**
 * MikroORM compares an index declared by an SQL expression (partial, descending, on expressions)
 * by its name only. So for each one this rebuilds it from the entity's SQL, in a transaction rolled
 * back, and compares PostgreSQL's definition of the rebuilt index with the migrated one's.
 */
export async function expressionIndexDrift(orm: MikroORM): Promise<string[]> {
  const schema = backendSchema(orm);
  const declared = Object.values(orm.getMetadata().getAll()).flatMap((meta: EntityMetadata) =>
    [...meta.indexes, ...meta.uniques].filter((i) => i.expression).map((i) => ({ table: meta.tableName, name: i.name, sql: i.expression })),
  );
  const drift: string[] = [];
  const em = orm.em.fork();
  await em.begin();
  try {
    const conn = em.getConnection();
    const ctx = em.getTransactionContext();
    const definition = async (name: string) => {
      const rows = await conn.execute<Array<{ def: string | null }>>(
        `select pg_get_indexdef(c.oid) as def from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = ? and c.relname = ? and c.relkind = 'i'`,
        [schema, name],
        'all',
        ctx,
      );
      return rows[0]?.def ?? null;
    };
    for (const index of declared) {
      if (typeof index.sql !== 'string' || !index.name) throw new Error(`index of ${index.table}: give it a name and its SQL as a string to compare it`);
      const migrated = await definition(index.name);
      if (migrated === null) continue; // missing altogether: the schema diff reports it
      await conn.execute(`drop index ${conn.getPlatform().quoteIdentifier(`${schema}.${index.name}`)}`, [], 'run', ctx);
      await conn.execute(index.sql, [], 'run', ctx);
      const declaredDef = await definition(index.name);
      if (declaredDef !== migrated) drift.push(`${index.name}: migrated ${migrated}; entity ${declaredDef ?? `(${index.sql} creates another name)`}`);
    }
  } finally {
    await em.rollback();
  }
  return drift;
}
