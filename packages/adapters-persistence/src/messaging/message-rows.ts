export const READ = { disableIdentityMap: true } as const;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The column of a domain field: `createdAt` → `created_at`. */
export const snake = (f: string) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * An `insert` of the named fields of a domain object, in SQL the caller completes with an
 * `on conflict` clause. The raw statement joins the unit of work's transaction like any other.
 */
export function insertSql<T extends object>(table: string, row: T, fields: ReadonlyArray<keyof T & string>, json: ReadonlyArray<keyof T & string> = []) {
  const columns = fields.map(snake);
  const marks = fields.map((f) => (json.includes(f) ? 'cast(? as jsonb)' : '?'));
  const params = fields.map((f) => {
    const value = row[f] ?? null;
    return json.includes(f) && value !== null ? JSON.stringify(value) : value;
  });
  return { sql: `insert into ${table} (${columns.join(', ')}) values (${marks.join(', ')})`, params };
}

/**
 * A raw row (snake_case columns, as a `returning *` or `select *` gives it) as a domain object:
 * the named fields only; timestamps as Dates; JSON parsed if the driver left it a string.
 */
export function fromRow<T>(row: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = row[snake(f)];
    out[f] = typeof v === 'string' && /At$/.test(f) ? new Date(v) : v;
  }
  if (typeof out.media === 'string') out.media = JSON.parse(out.media);
  return out as T;
}
