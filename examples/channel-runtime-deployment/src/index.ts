export * from './deploy.js';
export * from './env-file.js';
export * from './processes.js';
