export * from './nats-realtime-fanout.js';
