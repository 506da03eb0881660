import type { NewPlant, Plant } from './plant.js';

/**
 * Driven port: everything the use cases need from storage, and nothing more,
 * so in-memory and SQL adapters are interchangeable (see the contract tests).
 */
export interface Plants {
  /** Plants in insertion (id) order; `limit` caps the count when given. */
  list(limit?: number): Promise<Plant[]>;
  /** Resolves `false` rather than throwing when nothing had that id: "not found" is a normal outcome. */
  remove(id: number): Promise<boolean>;
  add(plant: NewPlant): Promise<Plant>;
}
