import 'reflect-metadata';
import { createApplication, type Application, type CorePorts } from '@servicedesk/core';
import { Container, ContainerModule } from 'inversify';
import { TYPES } from './types.js';

/**
 * The core's use cases, built once from whatever ports the adapter module bound. The suite relays
 * the outbox by hand (to see what waits in it), so no relay starts after each commit.
 */
const coreUseCases = new ContainerModule(({ bind }) => {
  bind<Application>(TYPES.Application)
    .toResolvedValue((ports: CorePorts) => createApplication({ ...ports, relayAfterCommit: false }), [TYPES.Ports])
    .inSingletonScope();
});

/**
 * This example's composition root: one adapter module (in-memory or PGlite) plus the use cases.
 * Swapping adapters is choosing the module; nothing that resolves `TYPES.Application` changes.
 */
export function createContainer(adapters: ContainerModule): Container {
  const container = new Container();
  container.load(adapters, coreUseCases);
  return container;
}
