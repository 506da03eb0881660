/** A plant as the store knows it. `id` is assigned by the store so clients can address it later. */
export interface Plant {
  readonly id: number;
  readonly name: string;
  readonly tag?: string;
}

/** What a caller supplies when adding a plant: the store, not the caller, owns the id. */
export interface NewPlant {
  readonly name: string;
  readonly tag?: string;
}
