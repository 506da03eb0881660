// The public API of background jobs: definitions, the store port and the runner. The store's
// in-memory adapter is a test fake: the testing entry point (`@servicedesk/core/testing`) exports it.
export * from './job.js';
export * from './job-store.js';
export * from './jobs.js';
export * from './job-runner.js';
