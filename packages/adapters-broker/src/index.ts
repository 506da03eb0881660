export * from './nats-realtime-fanout.js';
export * from './jetstream-broker.js';
