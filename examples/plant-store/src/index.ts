export { createPlantStoreApp, type PlantStoreAppOptions } from './http/app.js';
export type { NewPlant, Plant } from './core/plant.js';
export type { Plants } from './core/plants-port.js';
export { ListPlants } from './core/list-plants.js';
export { DeletePlant } from './core/delete-plant.js';
export { PlantNotFoundError } from './core/errors.js';
export { InMemoryPlants } from './adapters/in-memory-plants.js';
export { SqlPlants } from './adapters/sql-plants.js';
export { pgliteClient, pgPoolClient, type SqlClient } from './adapters/sql-client.js';
