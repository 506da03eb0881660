import 'reflect-metadata';
import path from 'node:path';
import { RequestContext } from '@mikro-orm/core';
import {
  Argon2PasswordHasher, HmacSecretDigester, HttpCompanyRegistry, JoseTokens, WsRealtimeEvents,
  HttpConversationIntegrations,
} from '@servicedesk/adapters-http';
import {
  createGcsBlobStorage, createRedisCache, LocalDiskBlobStorage, mikroOrmRepositories, openDatabase, type Database,
} from '@servicedesk/adapters-persistence';
import {
  createApplication, InMemoryCache, InProcessBroker, InProcessRealtimeFanout, type Broker, SystemClock, type Application, type BlobStorage, type Cache, type CorePorts,
  type RealtimeFanout, type ChannelQueries, DETACHED_CHANNEL_QUERIES,
} from '@servicedesk/core';
import { Container } from 'inversify';
import { randomUUID } from 'node:crypto';
import type { BackendConfig } from './config.js';

/** Identifiers of the container's bindings. */
export const TYPES = {
  Config: Symbol.for('Config'),
  Infrastructure: Symbol.for('Infrastructure'),
  JwtSecret: Symbol.for('JwtSecret'),
  Ports: Symbol.for('CorePorts'),
  Application: Symbol.for('Application'),
} as const;

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
export async function openInfrastructure(config: BackendConfig): Promise<Infrastructure> {
  const db = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? undefined : path.join(config.dataDir, 'pglite') });
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

/** The backend's composition root: every port bound to its adapter, the use cases built from them. */
export function createContainer(config: BackendConfig, infra: Infrastructure, jwtSecret: string, channelQueries: ChannelQueries = DETACHED_CHANNEL_QUERIES): Container {
  const c = new Container();
  c.bind(TYPES.Config).toConstantValue(config);
  c.bind(TYPES.Infrastructure).toConstantValue(infra);
  c.bind(TYPES.JwtSecret).toConstantValue(jwtSecret);
  c.bind<CorePorts>(TYPES.Ports).toResolvedValue(
    ({ db, cache, blobs, fanout, broker, brokerConnected }: Infrastructure, secret: string): CorePorts => ({
      ...mikroOrmRepositories(db.orm, brokerConnected ? { brokerConnected } : {}),
      tokens: new JoseTokens({ secret, accessLifetimeSeconds: config.accessTokenTtl, refreshLifetimeSeconds: config.refreshTokenTtl }),
      hasher: new Argon2PasswordHasher(),
      cache,
      blobs,
      realtime: new WsRealtimeEvents({ cache, fanout }),
      clock: new SystemClock(),
      ids: { uuid: randomUUID },
      companyRegistry: new HttpCompanyRegistry({ baseUrl: config.cnpjRegistryUrl }),
      digester: new HmacSecretDigester(secret),
      channelQueries,
      broker,
      conversationIntegrations: new HttpConversationIntegrations({ allowPrivate: config.allowPrivateUrls }),
    }),
    [TYPES.Infrastructure, TYPES.JwtSecret],
  ).inSingletonScope();
  c.bind<Application>(TYPES.Application).toResolvedValue((ports: CorePorts) => createApplication(ports), [TYPES.Ports]).inSingletonScope();
  return c;
}

/** One MikroORM unit of work per request or job. */
export function requestScope(db: Database) {
  return <T>(work: () => Promise<T>) => RequestContext.create(db.orm.em, work);
}
