import path from 'node:path';
import { JetStreamBroker, NatsQueryResponder } from '@servicedesk/adapters-broker';
import { openDatabase } from '@servicedesk/adapters-persistence';
import { pino } from 'pino';
import { channelAdminSeedFromEnv } from './persistence/seed-channel-admin.js';
import { assembleRuntime, parseConnectors, prepareChannelSchema } from './start-runtime.js';

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
const dataDir = path.resolve(env.DATA_DIR ?? './data');
const database = await openDatabase(env.DATABASE_URL
  ? { url: env.DATABASE_URL, poolMax: 4, entities: [], migrations: [] }
  : { dataDir: path.join(dataDir, 'channel-pglite'), entities: [], migrations: [] });
const prepared = await prepareChannelSchema(database, channelAdminSeedFromEnv(env));
logger.info(prepared, 'channel schema ready');
const { broker, close: closeBroker } = await JetStreamBroker.connect(env.BROKER_URL, { name: 'servicedesk-channel-runtime' });
broker.onGiveUp = (envelope, err) => logger.error({ err, id: envelope.id, subject: envelope.subject }, 'command given up after repeated failures');
const { responder, close: closeQueries } = await NatsQueryResponder.connect(env.BROKER_URL);
const { runtime } = assembleRuntime({
  broker, database, logger, graphApiUrl: (env.META_GRAPH_URL ?? 'https://graph.facebook.com/v21.0').replace(/\/$/, ''),
  connectors: parseConnectors(env.CHANNEL_CONNECTORS), queries: responder,
  ...(env.SEND_DEADLINE_MS ? { sendDeadlineMs: Number(env.SEND_DEADLINE_MS) } : {}),
});
await runtime.start();
logger.info({ broker: env.BROKER_URL }, 'channel runtime online');

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
