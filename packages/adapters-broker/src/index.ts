export * from './nats-realtime-fanout.js';
export * from './jetstream-broker.js';
export * from './nats-channel-queries.js';
