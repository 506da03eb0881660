import 'reflect-metadata';
import { RequestContext } from '@mikro-orm/core';
import type { RouteSpec } from '@servicedesk/adapters-http';
import type { Database } from '@servicedesk/adapters-persistence';
import type { CorePorts, JobDefinition } from '@servicedesk/core';
import { Container } from 'inversify';
import { FEATURES, type BackendApplication } from './modules.js';
import { featureModule, mergeParts, TOKENS, type Consumer, type Feature, type FeatureContext } from './modules/feature.js';

const all = (serviceIdentifier: symbol) => ({ serviceIdentifier, isMultiple: true as const, optional: true as const });

/**
 * The backend's composition root: each feature's ContainerModule binds its ports, use cases,
 * routes and consumers; the container merges the ports every use case receives and the
 * namespaced application (a key two features both provide stops the start).
 */
export function createContainer(given: Omit<FeatureContext, 'jobDefinitions'>, features: readonly Feature<any, any>[] = FEATURES): Container {
  const c = new Container();
  const jobDefinitions = () => c.getAll<readonly JobDefinition<any>[]>(TOKENS.JobParts, { optional: true }).flat();
  c.bind(TOKENS.Context).toConstantValue({ ...given, jobDefinitions } satisfies FeatureContext);
  c.bind(TOKENS.Ports)
    .toResolvedValue((parts: Array<{ feature: string; part: object }>) => mergeParts<CorePorts>('port', parts), [all(TOKENS.PortParts)])
    .inSingletonScope();
  c.bind(TOKENS.Application)
    .toResolvedValue((parts: Array<{ feature: string; part: object }>) => mergeParts<BackendApplication>('namespace', parts), [all(TOKENS.ApiParts)])
    .inSingletonScope();
  c.load(...features.map(featureModule));
  return c;
}

/** What the backend takes out of its container. */
export function resolveBackend(c: Container) {
  return {
    app: c.get<BackendApplication>(TOKENS.Application),
    routes: c.getAll<readonly RouteSpec[]>(TOKENS.RouteParts, { optional: true }).flat(),
    consumers: c.getAll<readonly Consumer[]>(TOKENS.ConsumerParts, { optional: true }).flat(),
    jobs: c.getAll<readonly JobDefinition<any>[]>(TOKENS.JobParts, { optional: true }).flat(),
    ports: c.get<CorePorts>(TOKENS.Ports),
  };
}

/** One MikroORM unit of work per request or job. */
export function requestScope(db: Database) {
  return <T>(work: () => Promise<T>) => RequestContext.create(db.orm.em, work);
}
