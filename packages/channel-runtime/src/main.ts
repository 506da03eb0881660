import path from 'node:path';
import { JetStreamBroker, NatsQueryResponder, natsSubject } from '@servicedesk/adapters-broker';
import { openDatabase } from '@servicedesk/adapters-persistence';
import { pino } from 'pino';
import { readRuntimeConfig } from './config.js';
import { channelAdminSeedFromEnv } from './persistence/seed-channel-admin.js';
import { assembleRuntime, prepareChannelSchema } from './start-runtime.js';
import { DatabaseSessionRegistry } from './ownership/database-session-registry.js';
import { assertWritableDir, during, exitOnStartupFailure } from './startup.js';

/**
 * The channel runtime as its own process: `BROKER_URL` (NATS JetStream) is required; its schema
 * lives in `DATABASE_URL` (PostgreSQL, schema `channel`) or, without it, in PGlite under DATA_DIR.
 * The configuration is checked, the broker reached and the database opened before the schema is
 * migrated; a failure prints one line `startup failed: <setting>: <reason>` and exits with 1.
 */
async function start() {
  const config = readRuntimeConfig(process.env);
  const logger = pino({ level: config.LOG_LEVEL, base: { component: 'channel-runtime' } });
  if (!config.DATABASE_URL) await assertWritableDir('DATA_DIR', config.DATA_DIR);
  const url = config.BROKER_URL;
  const prefix = config.NATS_PREFIX;
  // A dead instance's in-flight command is handed to the next owner after this (handlers in progress keep theirs alive).
  const { broker, close: closeBroker } = await during('BROKER_URL', 'cannot connect', () =>
    JetStreamBroker.connect(url, { name: 'servicedesk-channel-runtime', ackWaitMs: config.BROKER_ACK_WAIT_MS, prefix }),
  );
  broker.onGiveUp = (envelope, err) => logger.error({ err, id: envelope.id, subject: envelope.subject }, 'command given up after repeated failures');
  const { responder, close: closeQueries } = await during('BROKER_URL', 'cannot connect', () => NatsQueryResponder.connect(url, natsSubject(prefix, 'sd.q')));
  const database = await during(
    config.DATABASE_URL ? 'DATABASE_URL' : 'DATA_DIR',
    config.DATABASE_URL ? 'cannot connect' : 'cannot open the embedded database',
    () =>
      openDatabase(
        config.DATABASE_URL
          ? { url: config.DATABASE_URL, poolMax: 4, entities: [], migrations: [] }
          : { dataDir: path.join(config.DATA_DIR, 'channel-pglite'), entities: [], migrations: [] },
      ),
  );
  const prepared = await prepareChannelSchema(database, channelAdminSeedFromEnv(process.env));
  logger.info(prepared, 'channel schema ready');
  const { runtime } = assembleRuntime({
    broker,
    database,
    logger,
    graphApiUrl: config.META_GRAPH_URL,
    connectors: config.CHANNEL_CONNECTORS,
    queries: responder,
    sendDeadlineMs: config.SEND_DEADLINE_MS,
    // Several instances share the sessions through leases in the database (PostgreSQL); PGlite is one process's.
    ownership: {
      ...(database.kind === 'postgresql' ? { registry: new DatabaseSessionRegistry(database) } : {}),
      leaseTtlMs: config.LEASE_TTL_MS,
      syncIntervalMs: config.SESSION_SYNC_INTERVAL_MS,
      ...(config.RUNTIME_INSTANCE_ID ? { instanceId: config.RUNTIME_INSTANCE_ID } : {}),
    },
    sandboxEcho: config.SANDBOX_ECHO,
  });
  await runtime.start();
  logger.info({ broker: url, natsPrefix: prefix || undefined, instance: runtime.instanceId }, 'channel runtime online');
  return { runtime, closeQueries, closeBroker, database };
}

const running = await start().catch(exitOnStartupFailure);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void (async () => {
      await running.runtime.stop();
      await running.closeQueries();
      await running.closeBroker();
      await running.database.close();
      process.exit(0);
    })();
  });
}
