/** What a migration says happens to the referencing row when the referenced one is deleted. */
export type OnDelete = 'cascade' | 'set null' | 'no action';

/**
 * The foreign keys of one table, as its migration declares them: `<column> int references
 * <target>(id) [on delete ...]`, so PostgreSQL's default constraint name `<table>_<column>_fkey` and
 * no ON UPDATE rule. Each is mapped to the referenced id (`mapToPk`): the domain keeps a number.
 */
export function foreignKeysOf(table: string) {
  return (column: string, entity: string, onDelete: OnDelete, options: { nullable?: boolean; primary?: boolean } = {}) => ({
    kind: 'm:1' as const,
    entity,
    mapToPk: true,
    joinColumn: column,
    foreignKeyName: `${table}_${column}_fkey`,
    deleteRule: onDelete,
    updateRule: 'no action' as const,
    ...options,
  });
}
