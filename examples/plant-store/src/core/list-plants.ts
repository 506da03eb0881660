import type { Plant } from './plant.js';
import type { Plants } from './plants-port.js';

export class ListPlants {
  constructor(private readonly plants: Plants) {}

  async execute(limit?: number): Promise<Plant[]> {
    // Callers (e.g. HTTP) parse user input; a bad value here is a programming error, not a 400.
    if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 0)) {
      throw new RangeError(`limit must be a non-negative integer, got ${limit}`);
    }
    return this.plants.list(limit);
  }
}
