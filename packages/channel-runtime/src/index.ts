export * from './ports.js';
export * from './channel-runtime.js';
export * from './connectors/sandbox-connector.js';
