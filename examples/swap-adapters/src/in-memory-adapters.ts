import type { CorePorts } from '@servicedesk/core';
import { createInMemoryPorts } from '@servicedesk/core/testing';
import { ContainerModule } from 'inversify';
import { TYPES, type UnitOfWork } from './types.js';

type InMemoryPorts = ReturnType<typeof createInMemoryPorts>;
const IN_MEMORY_PORTS = Symbol.for('swap-adapters.InMemoryPorts');

const noUnitOfWork: UnitOfWork = (work) => work();

/**
 * Every port on the core's in-memory adapters. Singletons per container, so each container a
 * test makes starts from empty stores; the clock and broker are the ones those ports use.
 */
export const inMemoryAdapters = new ContainerModule(({ bind }) => {
  bind<InMemoryPorts>(IN_MEMORY_PORTS)
    .toDynamicValue(() => createInMemoryPorts())
    .inSingletonScope();
  bind<CorePorts>(TYPES.Ports).toResolvedValue((p: InMemoryPorts) => p, [IN_MEMORY_PORTS]);
  bind(TYPES.Clock).toResolvedValue((p: InMemoryPorts) => p.clock, [IN_MEMORY_PORTS]);
  bind(TYPES.Broker).toResolvedValue((p: InMemoryPorts) => p.broker, [IN_MEMORY_PORTS]);
  bind<UnitOfWork>(TYPES.UnitOfWork).toConstantValue(noUnitOfWork);
});
