import { buildOpenApi } from '@servicedesk/adapters-http/http/openapi';
import { DETACHED_CHANNEL_QUERIES } from '@servicedesk/core';
import { pino } from 'pino';
import { BACKEND_VERSION } from './backend.js';
import { readConfig } from './config.js';
import { createContainer, resolveBackend } from './container.js';
import type { Infrastructure } from './infrastructure.js';

/**
 * Infrastructure that only lets the features declare their routes: building the container reads
 * nothing from it, and any use of it (a query, a publish) throws, since nothing here serves requests.
 */
function describingOnly(path: string): never {
  const fail = () => {
    throw new Error(`${path} was used while only describing the API`);
  };
  return new Proxy(fail, { get: (_target, key) => (typeof key === 'symbol' ? undefined : describingOnly(`${path}.${key}`)) }) as never;
}

/**
 * The OpenAPI document of every route the backend serves, built from the route declarations without
 * a database or a listening server: the console's API types are generated from it.
 */
export function describeApi() {
  const config = readConfig({ JWT_SECRET: 'describing-the-api-only-describing-the-api', DATA_DIR: '/nonexistent' });
  const container = createContainer({
    config,
    infra: describingOnly('infra') as Infrastructure,
    jwtSecret: config.jwtSecret ?? 'describing-the-api-only-describing-the-api',
    log: pino({ level: 'silent' }),
    startedAt: new Date(0),
    version: BACKEND_VERSION,
    channelQueries: DETACHED_CHANNEL_QUERIES,
  });
  return buildOpenApi(resolveBackend(container).routes, { title: 'Service Desk backend', version: BACKEND_VERSION });
}
