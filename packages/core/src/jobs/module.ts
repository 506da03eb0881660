// The public API of background jobs: definitions, the store port and its in-memory adapter, the runner.
export * from './job.js';
export * from './job-store.js';
export * from './jobs.js';
export * from './job-runner.js';
export * from './in-memory-job-store.js';
