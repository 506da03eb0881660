/** Domain-level "not found", so the HTTP layer can map it to 404 without knowing about storage. */
export class PlantNotFoundError extends Error {
  constructor(readonly id: number) {
    super(`No plant with id ${id}`);
    this.name = 'PlantNotFoundError';
  }
}
