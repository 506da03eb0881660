import type { NewPlant, Plant } from '../core/plant.js';
import type { Plants } from '../core/plants-port.js';

/** Default storage for the demo and for fast tests; data lives as long as the process. */
export class InMemoryPlants implements Plants {
  // A Map iterates in insertion order and ids only grow, so iteration order is id order.
  readonly #plants = new Map<number, Plant>();
  #nextId = 1;

  constructor(seed: Iterable<NewPlant> = []) {
    for (const plant of seed) this.#insert(plant);
  }

  async list(limit?: number): Promise<Plant[]> {
    const all = [...this.#plants.values()];
    // Hand out copies so callers cannot mutate what is stored.
    return (limit === undefined ? all : all.slice(0, limit)).map((plant) => ({ ...plant }));
  }

  async remove(id: number): Promise<boolean> {
    return this.#plants.delete(id);
  }

  async add(plant: NewPlant): Promise<Plant> {
    return { ...this.#insert(plant) };
  }

  #insert({ name, tag }: NewPlant): Plant {
    // Omit `tag` instead of storing `undefined`, to match what the SQL adapter returns.
    const plant: Plant = { id: this.#nextId++, name, ...(tag === undefined ? {} : { tag }) };
    this.#plants.set(plant.id, plant);
    return plant;
  }
}
