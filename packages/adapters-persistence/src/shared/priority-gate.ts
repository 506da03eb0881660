import { AsyncLocalStorage } from 'node:async_hooks';

/** Work started inside `inBackground` (broker consumers, jobs, the outbox relay). */
const background = new AsyncLocalStorage<true>();

/** Runs `work` as background work: on a gated database its statements yield to requests. */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/** The part of a knex client the gate wraps. */
export interface GatedClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<void>;
}

export interface PriorityGateOptions {
  /** Longest anything waits for the connection before failing, as the pool's own timeout would. Default 60 s. */
  readonly acquireTimeoutMs?: number;
}

interface Waiter {
  readonly grant: () => void;
}

/**
 * The order in which a one-connection database (PGlite) is handed out. Requests and background
 * work (consumers, jobs, the relay: `inBackground`) wait in two queues, and while both have
 * someone waiting the connection alternates between them: a request waits behind at most one
 * background unit, however many delivery reports or inbound messages are queued, and background
 * work still gets half of a busy connection, so it keeps moving. Each unit (a statement, or a
 * whole transaction) keeps the connection until it is done; nothing is interrupted.
 *
 * It wraps the knex client's acquire and release, holding one permit for the pool's one connection.
 */
export function installPriorityGate(client: GatedClient, options: PriorityGateOptions = {}): void {
  const timeout = options.acquireTimeoutMs ?? 60_000;
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);
  const requests: Waiter[] = [];
  const backgroundWork: Waiter[] = [];
  let held = false;
  /** Whether the unit holding the connection (or the last one) is background work. */
  let backgroundHolds = false;

  /** The permit passes on: to the other queue than the last unit's when both wait, else to whoever waits. */
  const handOn = () => {
    const toBackground = backgroundWork.length > 0 && (requests.length === 0 || !backgroundHolds);
    const next = toBackground ? backgroundWork.shift() : requests.shift();
    backgroundHolds = toBackground;
    if (next) next.grant();
    else held = false;
  };

  const wait = (queue: Waiter[]) =>
    new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        queue.splice(queue.indexOf(waiter), 1);
        reject(new Error(`Timeout acquiring the database connection after ${timeout} ms (the embedded database has one)`));
      }, timeout);
      queue.push(waiter);
    });

  client.acquireConnection = async () => {
    const isBackground = background.getStore() === true;
    if (held) await wait(isBackground ? backgroundWork : requests);
    else backgroundHolds = isBackground;
    held = true;
    try {
      return await acquire();
    } catch (err) {
      handOn();
      throw err;
    }
  };
  client.releaseConnection = (connection: unknown) => {
    const released = release(connection);
    handOn();
    return released;
  };
}
