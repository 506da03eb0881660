export * from './database.js';
export * from './mikro-orm-transaction.js';
export * from './repositories/mikro-orm-users.js';
export * from './repositories/mikro-orm-tenancy.js';
export * from './repositories/mikro-orm-settings.js';
export * from './migrations/index.js';
export * from './schemas/index.js';
