import path from 'node:path';
import {
  createGcsBlobStorage, createRedisCache, LocalDiskBlobStorage, openDatabase, type Database,
} from '@servicedesk/adapters-persistence';
import { InMemoryCache, InProcessBroker, InProcessRealtimeFanout, type Broker, type BlobStorage, type Cache, type RealtimeFanout, type ChannelQueries } from '@servicedesk/core';
import type { BackendConfig } from './config.js';
import type { Migration } from './modules/feature.js';
import type { EntitySchema } from '@mikro-orm/core';

export interface Infrastructure {
  readonly db: Database;
  readonly cache: Cache;
  readonly blobs: BlobStorage;
  readonly fanout: RealtimeFanout;
  readonly broker: Broker;
  /** Number checks answered by a channel runtime in another process (set with BROKER_URL). */
  readonly remoteQueries?: ChannelQueries;
  /** Whether the broker answers now (NATS); absent means the in-process broker, always there. */
  readonly brokerConnected?: () => Promise<boolean>;
  close(): Promise<void>;
}

/** Opens the infrastructure the configuration selects: embedded defaults unless URLs are given. */
export async function openInfrastructure(config: BackendConfig, schema: { entities: EntitySchema<any>[]; migrations: Migration[] }): Promise<Infrastructure> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pglite'), ...schema });
  const redis = config.redisUrl ? await createRedisCache(config.redisUrl) : null;
  const cache = redis?.cache ?? new InMemoryCache();
  const blobs = config.blobStorage === 'gcs'
    ? createGcsBlobStorage({ ...config.gcs, bucket: config.gcs.bucket! })
    : new LocalDiskBlobStorage({ root: path.join(config.dataDir, 'files'), publicBaseUrl: config.publicUrl });
  // The NATS adapters (and the nats client) are imported only when a broker is configured.
  const { brokerUrl } = config;
  const natsAdapters = brokerUrl ? await import('@servicedesk/adapters-broker') : null;
  const nats = natsAdapters && brokerUrl ? await natsAdapters.NatsRealtimeFanout.connect(brokerUrl) : null;
  const fanout = nats?.fanout ?? new InProcessRealtimeFanout();
  const jetstream = natsAdapters && brokerUrl ? await natsAdapters.JetStreamBroker.connect(brokerUrl) : null;
  const broker: Broker = jetstream?.broker ?? new InProcessBroker();
  const queries = natsAdapters && brokerUrl ? await natsAdapters.NatsChannelQueries.connect(brokerUrl) : null;
  return {
    db, cache, blobs, fanout, broker, ...(queries ? { remoteQueries: queries.queries } : {}),
    ...(jetstream ? { brokerConnected: () => jetstream.broker.connected() } : {}),
    async close() {
      await queries?.close();
      await jetstream?.close();
      await nats?.close();
      await redis?.close();
      await db.close();
    },
  };
}

