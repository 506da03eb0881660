/**
 * Identifiers of the container's bindings. An adapter module binds the first four; the core's
 * use cases (`Application`) are bound once, from `Ports`, whatever the module.
 */
export const TYPES = {
  Ports: Symbol.for('swap-adapters.CorePorts'),
  /** The clock the ports use; a `FixedClock` in both modules, so runs can be compared. */
  Clock: Symbol.for('swap-adapters.Clock'),
  /** The broker the ports use; in-process in both modules, so tests can wait for it to settle. */
  Broker: Symbol.for('swap-adapters.Broker'),
  UnitOfWork: Symbol.for('swap-adapters.UnitOfWork'),
  Application: Symbol.for('swap-adapters.Application'),
} as const;

/**
 * Runs one inbound event's work (a request, a broker delivery, a test step) as one unit of work.
 * In memory there is nothing to open; on a database it is a MikroORM request context, which the
 * repositories need to find their EntityManager.
 */
export type UnitOfWork = <T>(work: () => Promise<T>) => Promise<T>;
