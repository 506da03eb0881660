import type { NewPlant, Plant } from '../core/plant.js';
import type { Plants } from '../core/plants-port.js';
import type { SqlClient } from './sql-client.js';

// `serial` is a 32-bit column: larger ids cannot exist, and PostgreSQL rejects them with an error.
const MAX_ID = 2 ** 31 - 1;

interface PlantRow {
  id: number;
  name: string;
  tag: string | null;
}

/** Plants stored in a `plants` table, on PostgreSQL or PGlite (see SqlClient). */
export class SqlPlants implements Plants {
  private constructor(private readonly db: SqlClient) {}

  /** Creates the table when missing so the demo runs on an empty database without a migration step. */
  static async open(db: SqlClient): Promise<SqlPlants> {
    await db.query('CREATE TABLE IF NOT EXISTS plants (id serial primary key, name text not null, tag text)');
    return new SqlPlants(db);
  }

  async list(limit?: number): Promise<Plant[]> {
    const { rows } =
      limit === undefined
        ? await this.db.query<PlantRow>('SELECT id, name, tag FROM plants ORDER BY id')
        : await this.db.query<PlantRow>('SELECT id, name, tag FROM plants ORDER BY id LIMIT $1', [limit]);
    return rows.map(toPlant);
  }

  async remove(id: number): Promise<boolean> {
    // Same answer as the in-memory adapter ("not there") instead of a database range error.
    if (!Number.isInteger(id) || id < 1 || id > MAX_ID) return false;
    const { rows } = await this.db.query('DELETE FROM plants WHERE id = $1 RETURNING id', [id]);
    return rows.length > 0;
  }

  async add({ name, tag }: NewPlant): Promise<Plant> {
    const { rows } = await this.db.query<PlantRow>('INSERT INTO plants (name, tag) VALUES ($1, $2) RETURNING id, name, tag', [name, tag ?? null]);
    const row = rows[0];
    if (!row) throw new Error('INSERT ... RETURNING produced no row');
    return toPlant(row);
  }
}

function toPlant({ id, name, tag }: PlantRow): Plant {
  // NULL tag becomes an absent property, which is what the API and the in-memory adapter expose.
  return { id: Number(id), name, ...(tag === null ? {} : { tag }) };
}
