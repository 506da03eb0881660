export * from './types.js';
export * from './container.js';
export * from './in-memory-adapters.js';
export * from './pglite-adapters.js';
export * from './world.js';
export * from './scenario.js';
