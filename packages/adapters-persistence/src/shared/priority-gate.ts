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
  /** While requests keep coming, background work still gets a unit at least this often. Default 50 ms. */
  readonly maxBackgroundWaitMs?: number;
  /** Longest anything waits for the connection before failing, as the pool's own timeout would. Default 60 s. */
  readonly acquireTimeoutMs?: number;
  readonly now?: () => number;
}

interface Waiter { readonly grant: () => void }

/**
 * The order in which a one-connection database (PGlite) is handed out: a request's statement or
 * transaction goes before background work waiting for it, so an operator's request does not queue
 * behind a burst of delivery reports or inbound messages. Background work still gets one unit
 * whenever none has had the connection for `maxBackgroundWaitMs`, so it always moves, however busy
 * the requests keep it. Each unit (a statement, or a whole transaction) keeps the connection until
 * it is done; nothing is interrupted.
 *
 * It wraps the knex client's acquire and release, holding one permit for the pool's one connection.
 */
export function installPriorityGate(client: GatedClient, options: PriorityGateOptions = {}): void {
  const maxWait = options.maxBackgroundWaitMs ?? 50;
  const timeout = options.acquireTimeoutMs ?? 60_000;
  const now = options.now ?? (() => performance.now());
  const acquire = client.acquireConnection.bind(client);
  const release = client.releaseConnection.bind(client);
  const requests: Waiter[] = [];
  const backgroundWork: Waiter[] = [];
  let held = false;
  /** When background work last had the connection. */
  let lastBackground = now();

  /** The permit passes on: to background work that went without for the bound, else a request, else background work. */
  const handOn = () => {
    const due = backgroundWork.length > 0 && (requests.length === 0 || now() - lastBackground >= maxWait);
    const next = due ? backgroundWork.shift() : requests.shift();
    if (due) lastBackground = now();
    if (next) next.grant();
    else held = false;
  };

  const wait = (queue: Waiter[]) => new Promise<void>((resolve, reject) => {
    const waiter: Waiter = { grant: () => { clearTimeout(timer); resolve(); } };
    const timer = setTimeout(() => {
      queue.splice(queue.indexOf(waiter), 1);
      reject(new Error(`Timeout acquiring the database connection after ${timeout} ms (the embedded database has one)`));
    }, timeout);
    queue.push(waiter);
  });

  client.acquireConnection = async () => {
    const isBackground = background.getStore() === true;
    if (held) await wait(isBackground ? backgroundWork : requests);
    else if (isBackground) lastBackground = now();
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
