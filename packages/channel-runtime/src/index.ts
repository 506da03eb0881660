export * from './ports.js';
export * from './channel-runtime.js';
export * from './connectors/sandbox-connector.js';
export * from './runtime-channel-queries.js';
export * from './connectors/graph-connector.js';
export * from './connectors/bizchat-connector.js';
export * from './connectors/baileys-connector.js';
// Not baileys-messages.js nor baileys-session.js: they import Baileys, which the connector loads on demand.
export * from './persistence/channel-schemas.js';
export * from './persistence/channel-migrations.js';
export * from './persistence/channel-database.js';
export * from './persistence/db-auth-state.js';
export * from './persistence/seed-channel-admin.js';
export * from './start-runtime.js';
export * from './connectors/sandbox-ledger.js';
export * from './ownership/session-registry.js';
export * from './ownership/database-session-registry.js';
export * from './startup.js';
export { RUNTIME_ENV_NAMES, type RuntimeEnvName } from './config.js';
