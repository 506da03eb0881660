import type { EntitySchema } from '@mikro-orm/core';
import type { RouteSpec } from '@servicedesk/adapters-http';
import type { Application, BrokerEnvelope, ChannelQueries, CorePorts, JobDefinition, SubscribeOptions } from '@servicedesk/core';
import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { BackendConfig } from '../config.js';
import type { Infrastructure } from '../infrastructure.js';

/** Identifiers of the backend container's bindings. Features add to the `*Parts` multi-bindings. */
export const TOKENS = {
  Context: Symbol.for('backend.FeatureContext'),
  PortParts: Symbol.for('backend.PortParts'),
  Ports: Symbol.for('backend.Ports'),
  ApiParts: Symbol.for('backend.ApiParts'),
  Application: Symbol.for('backend.Application'),
  RouteParts: Symbol.for('backend.RouteParts'),
  ConsumerParts: Symbol.for('backend.ConsumerParts'),
  JobParts: Symbol.for('backend.JobParts'),
} as const;

/** What every feature may build its adapters from. */
export interface FeatureContext {
  readonly config: BackendConfig;
  readonly infra: Infrastructure;
  readonly jwtSecret: string;
  /** Number checks and contact reads answered by a channel runtime (embedded or remote). */
  readonly channelQueries: ChannelQueries;
  readonly startedAt: Date;
  readonly version: string;
  readonly log: Logger;
  /** Every feature's job definitions, once the application exists (the enqueue port checks names against them). */
  readonly jobDefinitions: () => readonly JobDefinition<any>[];
}

/** A durable broker consumer a feature runs on every backend instance, one unit of work per message. */
export interface Consumer {
  readonly durable: string;
  readonly subject: string;
  handle(envelope: BrokerEnvelope): Promise<void>;
  readonly options?: SubscribeOptions;
}

export interface Migration {
  readonly name: string;
  readonly class: new (...args: any[]) => any;
}

/**
 * One feature of the backend, as data: its tables, the adapters of its own ports, its use cases
 * (namespaces of `app`), its routes, its broker consumers and its jobs. `featureModule` turns it into an
 * inversify ContainerModule; `modules.ts` lists every feature once.
 */
export interface Feature<P extends object = object, A extends object = object> {
  readonly name: string;
  /** Entity schemas and migrations of tables the feature adds (released history lives in adapters-persistence). */
  readonly entities?: readonly EntitySchema<any>[];
  readonly migrations?: readonly Migration[];
  /** Adapters of the feature's own ports, merged into the ports every feature's use cases receive. */
  ports?(ctx: FeatureContext): P;
  /** The feature's use cases, as namespaces of the application (`{ tags: createTags(ports) }`). */
  api?(ports: CorePorts & P): A;
  routes?(app: Application & A, ctx: FeatureContext): readonly RouteSpec[];
  consumers?(app: Application & A, ctx: FeatureContext): readonly Consumer[];
  /** Background work: recurring (`every`) or the handlers of one-off jobs use cases enqueue; run by one runner per instance, claimed in the database. */
  jobs?(app: Application & A, ctx: FeatureContext): readonly JobDefinition<any>[];
}

/** Declares a feature, keeping the types of its ports and namespaces. */
export function feature<P extends object = object, A extends object = object>(f: Feature<P, A>): Feature<P, A> {
  return f;
}

/** The bindings a feature contributes to the backend container. */
export function featureModule(f: Feature<any, any>): ContainerModule {
  return new ContainerModule(({ bind }) => {
    const named = <T>(part: T) => ({ feature: f.name, part });
    if (f.ports)
      bind(TOKENS.PortParts)
        .toResolvedValue((ctx: FeatureContext) => named(f.ports!(ctx)), [TOKENS.Context])
        .inSingletonScope();
    if (f.api)
      bind(TOKENS.ApiParts)
        .toResolvedValue((ports: CorePorts) => named(f.api!(ports)), [TOKENS.Ports])
        .inSingletonScope();
    if (f.routes) {
      bind(TOKENS.RouteParts)
        .toResolvedValue((app: Application, ctx: FeatureContext) => f.routes!(app, ctx), [TOKENS.Application, TOKENS.Context])
        .inSingletonScope();
    }
    if (f.jobs) {
      bind(TOKENS.JobParts)
        .toResolvedValue((app: Application, ctx: FeatureContext) => f.jobs!(app, ctx), [TOKENS.Application, TOKENS.Context])
        .inSingletonScope();
    }
    if (f.consumers) {
      bind(TOKENS.ConsumerParts)
        .toResolvedValue((app: Application, ctx: FeatureContext) => f.consumers!(app, ctx), [TOKENS.Application, TOKENS.Context])
        .inSingletonScope();
    }
  });
}

/**
 * Merges the features' parts into one object, refusing a key two features both provide: a
 * namespace or port silently replaced by another feature's would be a bug found only at run time.
 */
export function mergeParts<T extends object>(what: string, parts: ReadonlyArray<{ feature: string; part: object }>): T {
  const merged: Record<string, unknown> = {};
  const owner = new Map<string, string>();
  for (const { feature: name, part } of parts) {
    for (const [key, value] of Object.entries(part)) {
      if (owner.has(key)) throw new Error(`${what} "${key}" is provided by both ${owner.get(key)} and ${name}`);
      owner.set(key, name);
      merged[key] = value;
    }
  }
  return merged as T;
}
