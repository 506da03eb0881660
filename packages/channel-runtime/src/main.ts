import path from 'node:path';
import { JetStreamBroker, NatsQueryResponder } from '@servicedesk/adapters-broker';
import { openDatabase } from '@servicedesk/adapters-persistence';
import { pino } from 'pino';
import { channelAdminSeedFromEnv } from './persistence/seed-channel-admin.js';
import { assembleRuntime, parseConnectors, prepareChannelSchema } from './start-runtime.js';
import { DEFAULT_LEASE_TTL_MS, DEFAULT_SYNC_INTERVAL_MS } from './channel-runtime.js';
import { DatabaseSessionRegistry } from './ownership/database-session-registry.js';

/**
 * The channel runtime as its own process: `BROKER_URL` (NATS JetStream) is required; its schema
 * lives in `DATABASE_URL` (PostgreSQL, schema `channel`) or, without it, in PGlite under DATA_DIR.
 */
const env = process.env;
const logger = pino({ level: env.LOG_LEVEL ?? 'info', base: { component: 'channel-runtime' } });
if (!env.BROKER_URL) {
  logger.fatal('BROKER_URL is required: the runtime takes its commands from NATS JetStream (npm start runs it embedded instead)');
  process.exit(2);
}
/** A positive whole number from the environment, or the default; anything else stops the start. */
function positive(name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) {
    logger.fatal(`${name} must be a positive whole number of milliseconds, not "${raw}"`);
    process.exit(2);
  }
  return n;
}
const dataDir = path.resolve(env.DATA_DIR ?? './data');
const database = await openDatabase(env.DATABASE_URL
  ? { url: env.DATABASE_URL, poolMax: 4, entities: [], migrations: [] }
  : { dataDir: path.join(dataDir, 'channel-pglite'), entities: [], migrations: [] });
const prepared = await prepareChannelSchema(database, channelAdminSeedFromEnv(env));
logger.info(prepared, 'channel schema ready');
// A dead instance's in-flight command is handed to the next owner after this (handlers in progress keep theirs alive).
const { broker, close: closeBroker } = await JetStreamBroker.connect(env.BROKER_URL, { name: 'servicedesk-channel-runtime', ackWaitMs: positive('BROKER_ACK_WAIT_MS', 10_000) });
broker.onGiveUp = (envelope, err) => logger.error({ err, id: envelope.id, subject: envelope.subject }, 'command given up after repeated failures');
const { responder, close: closeQueries } = await NatsQueryResponder.connect(env.BROKER_URL);
const { runtime } = assembleRuntime({
  broker, database, logger, graphApiUrl: (env.META_GRAPH_URL ?? 'https://graph.facebook.com/v21.0').replace(/\/$/, ''),
  connectors: parseConnectors(env.CHANNEL_CONNECTORS), queries: responder,
  ...(env.SEND_DEADLINE_MS ? { sendDeadlineMs: positive('SEND_DEADLINE_MS', 60_000) } : {}),
  // Several instances share the sessions through leases in the database (PostgreSQL); PGlite is one process's.
  ownership: {
    ...(database.kind === 'postgresql' ? { registry: new DatabaseSessionRegistry(database) } : {}),
    leaseTtlMs: positive('LEASE_TTL_MS', DEFAULT_LEASE_TTL_MS),
    syncIntervalMs: positive('SESSION_SYNC_INTERVAL_MS', DEFAULT_SYNC_INTERVAL_MS),
    ...(env.RUNTIME_INSTANCE_ID ? { instanceId: env.RUNTIME_INSTANCE_ID } : {}),
  },
  sandboxEcho: env.SANDBOX_ECHO === 'true',
});
await runtime.start();
logger.info({ broker: env.BROKER_URL, instance: runtime.instanceId }, 'channel runtime online');

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      await runtime.stop();
      await closeQueries();
      await closeBroker();
      await database.close();
      process.exit(0);
    })();
  });
}
