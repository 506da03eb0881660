import path from 'node:path';
import { AesGcmSecretCipher, pinnedLookupFor } from '@servicedesk/adapters-http';
import {
  CompanyBlobStorage,
  createGcsBlobStorage,
  createRedisCache,
  createS3BlobStorage,
  LocalDiskBlobStorage,
  MikroOrmBlobLocations,
  MikroOrmObjstoreConfigs,
  openDatabase,
  type Database,
} from '@servicedesk/adapters-persistence';
import {
  InMemoryCache,
  InProcessBroker,
  InProcessRealtimeFanout,
  type Broker,
  type BlobStorage,
  type Cache,
  type RealtimeFanout,
  type ChannelQueries,
} from '@servicedesk/core';
import type { ObjstoreChanges } from '@servicedesk/core/objstore/ports';
import { during } from '@servicedesk/channel-runtime';
import type { BackendConfig } from './config.js';
import { lockDataDir } from './data-dir-lock.js';
import type { Migration } from './modules/feature.js';
import type { EntitySchema } from '@mikro-orm/core';
import type { Logger } from 'pino';

export interface Infrastructure {
  readonly db: Database;
  readonly cache: Cache;
  readonly blobs: BlobStorage;
  /** Set when `blobs` routes uploads by company: told when a company's object-store configs change. */
  readonly objstoreChanges?: ObjstoreChanges;
  readonly fanout: RealtimeFanout;
  readonly broker: Broker;
  /** Number checks answered by a channel runtime in another process (set with BROKER_URL). */
  readonly remoteQueries?: ChannelQueries;
  /** Whether the broker answers now (NATS); absent means the in-process broker, always there. */
  readonly brokerConnected?: () => Promise<boolean>;
  /** Whether the cache answers now (Redis); absent means the in-memory cache, always there. */
  readonly cacheConnected?: () => Promise<boolean>;
  close(): Promise<void>;
}

/** Opens the infrastructure the configuration selects: embedded defaults unless URLs are given. */
export async function openInfrastructure(
  config: BackendConfig,
  schema: { entities: EntitySchema<any>[]; migrations: Migration[] },
  logger?: Pick<Logger, 'warn'>,
): Promise<Infrastructure> {
  // The embedded database is one process's: a second instance on the same DATA_DIR stops here.
  const lock = config.databaseUrl ? null : await lockDataDir(config.dataDir);
  // Each failure names the setting to fix (`startup failed: DATABASE_URL: cannot connect: …`).
  const db = await during(config.databaseUrl ? 'DATABASE_URL' : 'DATA_DIR', config.databaseUrl ? 'cannot connect' : 'cannot open the embedded database', () =>
    openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pglite'), ...schema }),
  ).catch(async (err: unknown) => {
    await lock?.release();
    throw err;
  });
  // A Redis that is down does not stop the start: what needs it answers 503 and /debug-queues says so.
  const redis = config.redisUrl
    ? await createRedisCache(config.redisUrl, {
        prefix: config.redisPrefix,
        onError: (err) => logger?.warn({ err: err.message }, 'the cache (REDIS_URL) does not answer: what needs it answers 503 until it is back'),
      })
    : null;
  const cache = redis?.cache ?? new InMemoryCache();
  const blobs =
    config.blobStorage === 'gcs'
      ? createGcsBlobStorage({ ...config.gcs, bucket: config.gcs.bucket! })
      : new LocalDiskBlobStorage({ root: path.join(config.dataDir, 'files'), publicBaseUrl: config.publicUrl });
  // The NATS adapters (and the nats client) are imported only when a broker is configured.
  const { brokerUrl } = config;
  const natsAdapters = brokerUrl ? await import('@servicedesk/adapters-broker') : null;
  const { natsPrefix } = config;
  const connectBroker = async (adapters: NonNullable<typeof natsAdapters>, url: string) =>
    during('BROKER_URL', 'cannot connect', async () => {
      const nats = await adapters.NatsRealtimeFanout.connect(url, adapters.natsSubject(natsPrefix, 'sd.realtime'));
      const jetstream = await adapters.JetStreamBroker.connect(url, { prefix: natsPrefix }).catch(async (err: unknown) => {
        await nats.close();
        throw err;
      });
      const queries = await adapters.NatsChannelQueries.connect(url, adapters.natsSubject(natsPrefix, 'sd.q')).catch(async (err: unknown) => {
        await jetstream.close();
        await nats.close();
        throw err;
      });
      return { nats, jetstream, queries };
    });
  const connected =
    natsAdapters && brokerUrl
      ? await connectBroker(natsAdapters, brokerUrl).catch(async (err: unknown) => {
          await redis?.close();
          await db.close();
          throw err;
        })
      : null;
  const nats = connected?.nats ?? null;
  const fanout = nats?.fanout ?? new InProcessRealtimeFanout();
  const jetstream = connected?.jetstream ?? null;
  // In process, a crash loses what the broker holds: the outbox keeps each entry until it is handled.
  const broker: Broker = jetstream?.broker ?? new InProcessBroker({ trackHandling: true });
  const queries = connected?.queries ?? null;
  return {
    db,
    cache,
    blobs,
    fanout,
    broker,
    ...(queries ? { remoteQueries: queries.queries } : {}),
    ...(jetstream ? { brokerConnected: () => jetstream.broker.connected() } : {}),
    ...(redis ? { cacheConnected: () => redis.connected() } : {}),
    async close() {
      await queries?.close();
      await jetstream?.close();
      await nats?.close();
      await redis?.close();
      await db.close();
      await lock?.release();
    },
  };
}

/**
 * The infrastructure with its blob storage routed by company: a company with an active object-store
 * config stores its new uploads in that bucket (reached under the deployment's address rules), the
 * others in `infra.blobs`, and every blob is found where it was put. Public URLs are the backend's own
 * `<PUBLIC_URL>/public/…`, which stay valid whatever a company's config becomes; the route serves the
 * file, or redirects to a company's CDN or to GCS (`BLOB_STORAGE=gcs`), which serve theirs themselves.
 * Every feature and the `/public` route take their blobs from here.
 */
export function routeBlobsByCompany(infra: Infrastructure, config: BackendConfig, jwtSecret: string, logger?: Pick<Logger, 'warn'>): Infrastructure {
  const { orm } = infra.db;
  const lookupFor = (url: URL) => pinnedLookupFor(url, config.allowPrivateUrls);
  const blobs = new CompanyBlobStorage({
    fallback: infra.blobs,
    configs: new MikroOrmObjstoreConfigs(orm),
    locations: new MikroOrmBlobLocations(orm),
    cipher: new AesGcmSecretCipher(config.secretsKey ?? jwtSecret),
    storeOf: (connection) => createS3BlobStorage(connection, { lookupFor }),
    publicBaseUrl: config.publicUrl,
    fallbackServesPublicly: config.blobStorage === 'gcs',
    onStoreError: (err, at) => logger?.warn({ err, ...at }, "a company's object store failed; the request answers 503"),
  });
  return { ...infra, blobs, objstoreChanges: blobs };
}
