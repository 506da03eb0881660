import { randomUUID } from 'node:crypto';
import {
  AesGcmSecretCipher,
  Argon2PasswordHasher,
  HmacSecretDigester,
  HttpCompanyRegistry,
  HttpConversationIntegrations,
  JoseTokens,
  versionRoutes,
  WsRealtimeEvents,
} from '@servicedesk/adapters-http';
import { MikroOrmJobStore, MikroOrmTickets } from '@servicedesk/adapters-persistence';
import { jobPorts, RoutingReads, SystemClock } from '@servicedesk/core';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES } from '@servicedesk/adapters-persistence/features';

/** The ports every feature shares (time, ids, cache, files, realtime, tokens, broker, transactions), and `/version`. */
export const platform: Feature = feature({
  name: 'platform',
  ports: ({ config, infra, jwtSecret, channelQueries, jobDefinitions }) => {
    const clock = new SystemClock();
    const ids = { uuid: randomUUID };
    // The inbound routing's reads kept per process, made stale by every frame about what they read.
    const routingReads = new RoutingReads({ cache: infra.cache, clock, ids });
    return {
      ...PERSISTENCE_FEATURES.platform.repositories(infra.db.orm),
      ...jobPorts(new MikroOrmJobStore(infra.db.orm), jobDefinitions),
      tokens: new JoseTokens({ secret: jwtSecret, accessLifetimeSeconds: config.accessTokenTtl, refreshLifetimeSeconds: config.refreshTokenTtl }),
      hasher: new Argon2PasswordHasher(),
      cache: infra.cache,
      blobs: infra.blobs,
      realtime: routingReads.watching(new WsRealtimeEvents({ cache: infra.cache, fanout: infra.fanout, tickets: new MikroOrmTickets(infra.db.orm) })),
      routingReads,
      clock,
      ids,
      companyRegistry: new HttpCompanyRegistry({ baseUrl: config.cnpjRegistryUrl }),
      digester: new HmacSecretDigester(jwtSecret),
      secretCipher: new AesGcmSecretCipher(config.secretsKey ?? jwtSecret),
      channelQueries,
      broker: infra.broker,
      conversationIntegrations: new HttpConversationIntegrations({ allowPrivate: config.allowPrivateUrls }),
    };
  },
  routes: (_app, { startedAt, version }) => versionRoutes({ name: 'servicedesk-backend', version, startedAt }),
});
