import { proxyRoutes, TunnelProxyChecker } from '@servicedesk/adapters-http';
import { createProxies, type ProxiesApi } from '@servicedesk/core/compose/proxies';
import { feature, type Feature } from './feature.js';
import { PERSISTENCE_FEATURES, tablesOf } from '@servicedesk/adapters-persistence/features';

/**
 * Proxy pools for session connections: the platform's and each company's, the password sealed with
 * the platform's SecretCipher; each proxy is checked by opening a tunnel through it to
 * `PROXY_CHECK_TARGET` when saved and by a recurring health job (`proxies.check`); assigning,
 * balancing or disabling restarts the affected sessions through the channel runtime.
 */
export const proxies: Feature<object, { proxies: ProxiesApi }> = feature({
  name: 'proxies',
  ...tablesOf(PERSISTENCE_FEATURES.proxies),
  ports: ({ infra, config }) => ({
    ...PERSISTENCE_FEATURES.proxies.repositories(infra.db.orm),
    proxyChecker: new TunnelProxyChecker({
      target: config.proxies.checkTarget,
      allowPrivate: config.allowPrivateUrls,
      timeoutMs: config.proxies.checkTimeoutMs,
    }),
    proxyCheckEveryMs: config.proxies.checkEveryMs,
  }),
  api: (ports) => ({ proxies: createProxies(ports) }),
  routes: (app) => proxyRoutes(app),
  jobs: (app) => app.proxies.jobs(),
});
