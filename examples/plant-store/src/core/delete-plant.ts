import { PlantNotFoundError } from './errors.js';
import type { Plants } from './plants-port.js';

export class DeletePlant {
  constructor(private readonly plants: Plants) {}

  /** Deleting something that is not there is reported, not ignored, so clients can tell a stale id apart. */
  async execute(id: number): Promise<void> {
    if (!(await this.plants.remove(id))) throw new PlantNotFoundError(id);
  }
}
