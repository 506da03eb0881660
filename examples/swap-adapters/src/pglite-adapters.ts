import { randomUUID } from 'node:crypto';
import { RequestContext } from '@mikro-orm/core';
import { MikroOrmJobStore, mikroOrmRepositories, type Database } from '@servicedesk/adapters-persistence';
import { DETACHED_CHANNEL_QUERIES, InMemoryCache, InProcessBroker, jobPorts, type CorePorts } from '@servicedesk/core';
import {
  FixedClock,
  InMemoryBlobStorage,
  InMemoryTokens,
  InsecureTestDigester,
  InsecureTestCipher,
  InsecureTestPasswordHasher,
  InMemorySocialAccounts,
  InMemorySpeechToText,
  InMemoryLanguageModel,
  InMemoryProxyChecker,
  InMemoryObjstoreProbe,
  InMemoryFlowHttp,
  InMemoryTemplateDirectory,
  OFFLINE_COMPANY_REGISTRY,
  RecordingConversationIntegrations,
  RecordingRealtime,
} from '@servicedesk/core/testing';
import { ContainerModule } from 'inversify';
import { TYPES, type UnitOfWork } from './types.js';

/**
 * Every repository on MikroORM over the given database (embedded PGlite here; a PostgreSQL
 * `Database` works the same), as the backend's composition root builds them. What has no
 * database side (broker, cache, blobs, tokens, realtime) stays on the core's in-process
 * adapters, so the only thing that differs from `inMemoryAdapters` is persistence.
 *
 * The database is opened by the caller and passed in: starting PGlite takes seconds, so a test
 * suite opens it once and makes a fresh container (on emptied tables) for every test.
 */
export function pgliteAdapters(db: Database): ContainerModule {
  const { orm } = db;
  return new ContainerModule(({ bind }) => {
    bind(TYPES.Clock)
      .toDynamicValue(() => new FixedClock())
      .inSingletonScope();
    bind(TYPES.Broker)
      .toDynamicValue(() => new InProcessBroker())
      .inSingletonScope();
    bind<CorePorts>(TYPES.Ports)
      .toResolvedValue(
        (clock: FixedClock, broker: InProcessBroker): CorePorts => ({
          ...mikroOrmRepositories(orm),
          clock,
          broker,
          ids: { uuid: randomUUID },
          cache: new InMemoryCache(clock),
          blobs: new InMemoryBlobStorage(),
          realtime: new RecordingRealtime(),
          tokens: new InMemoryTokens(),
          hasher: new InsecureTestPasswordHasher(),
          digester: new InsecureTestDigester(),
          companyRegistry: OFFLINE_COMPANY_REGISTRY,
          channelQueries: DETACHED_CHANNEL_QUERIES,
          socialAccounts: new InMemorySocialAccounts(),
          templateDirectory: new InMemoryTemplateDirectory(),
          conversationIntegrations: new RecordingConversationIntegrations(),
          speechToText: new InMemorySpeechToText(),
          flowHttp: new InMemoryFlowHttp(),
          languageModel: new InMemoryLanguageModel(),
          proxyChecker: new InMemoryProxyChecker(),
          objstoreProbe: new InMemoryObjstoreProbe(),
          secretCipher: new InsecureTestCipher(),
          ...jobPorts(new MikroOrmJobStore(orm)),
        }),
        [TYPES.Clock, TYPES.Broker],
      )
      .inSingletonScope();
    // One MikroORM request context per unit of work, as the HTTP and broker adapters open one.
    bind<UnitOfWork>(TYPES.UnitOfWork).toConstantValue((work) => RequestContext.create(orm.em, work));
  });
}
