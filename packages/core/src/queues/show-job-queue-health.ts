import type { BackgroundJobs } from '../shared/background-jobs.js';
import type { ErrorCode } from '../shared/error-codes.js';
import type { Clock } from '../shared/ports.js';
import type { JobQueueHealth, OutboxBacklog } from './ports.js';

/** The code of a dependency that does not answer. */
export type DependencyDown = Extract<ErrorCode, 'ERR_DATABASE_UNAVAILABLE' | 'ERR_CACHE_UNAVAILABLE' | 'ERR_BROKER_UNAVAILABLE'>;

/** An outbox entry older than this means the relay or the broker is stuck. */
export const OUTBOX_STALE_SECONDS = 60;

export interface JobQueueHealthView {
  /** `down`: a dependency does not answer (the route answers 503); `degraded`: the outbox is stuck. */
  readonly status: 'ok' | 'degraded' | 'down';
  /** With `down`: the first dependency that does not answer, as its error code. */
  readonly error?: DependencyDown;
  readonly database: { readonly connected: boolean };
  readonly cache: { readonly connected: boolean };
  readonly broker: { readonly connected: boolean };
  /** null when the database does not answer. */
  readonly outbox: { readonly pending: number; readonly oldestAgeSeconds: number | null; readonly bySubject: Readonly<Record<string, number>> } | null;
  readonly backgroundJobs: { readonly running: number };
  readonly checkedAt: string;
}

/**
 * The health of the dependencies and job queues for `GET /debug-queues`, a public route: whether
 * the database, the cache and the broker answer, and counts and ages only — never an id, a name, a
 * subject with an id in it, or a payload. `down` when a dependency does not answer; `degraded`
 * when the oldest pending outbox entry is older than a minute.
 */
export class ShowJobQueueHealth {
  constructor(private readonly deps: { health: JobQueueHealth; jobs: BackgroundJobs; clock: Clock }) {}

  async execute(): Promise<JobQueueHealthView> {
    const { health, jobs, clock } = this.deps;
    const now = clock.now();
    const [backlog, cache, broker] = await Promise.all([
      health.outboxBacklog().catch((): OutboxBacklog | null => null),
      health.cacheConnected().catch(() => false),
      health.brokerConnected().catch(() => false),
    ]);
    const database = backlog !== null;
    const oldestAgeSeconds = backlog?.oldestCreatedAt ? Math.max(0, Math.floor((now.getTime() - backlog.oldestCreatedAt.getTime()) / 1000)) : null;
    const stale = oldestAgeSeconds !== null && oldestAgeSeconds > OUTBOX_STALE_SECONDS;
    const error: DependencyDown | undefined = !database
      ? 'ERR_DATABASE_UNAVAILABLE'
      : !cache
        ? 'ERR_CACHE_UNAVAILABLE'
        : !broker
          ? 'ERR_BROKER_UNAVAILABLE'
          : undefined;
    return {
      status: error ? 'down' : stale ? 'degraded' : 'ok',
      ...(error ? { error } : {}),
      database: { connected: database },
      cache: { connected: cache },
      broker: { connected: broker },
      outbox: backlog && { pending: backlog.pending, oldestAgeSeconds, bySubject: { ...backlog.bySubject } },
      backgroundJobs: { running: jobs.runningCount() },
      checkedAt: now.toISOString(),
    };
  }
}
