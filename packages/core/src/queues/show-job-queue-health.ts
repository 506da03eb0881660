import type { BackgroundJobs } from '../shared/background-jobs.js';
import type { Clock } from '../shared/ports.js';
import type { JobQueueHealth } from './ports.js';

/** An outbox entry older than this means the relay or the broker is stuck. */
export const OUTBOX_STALE_SECONDS = 60;

export interface JobQueueHealthView {
  readonly status: 'ok' | 'degraded';
  readonly outbox: { readonly pending: number; readonly oldestAgeSeconds: number | null; readonly bySubject: Readonly<Record<string, number>> };
  readonly broker: { readonly connected: boolean };
  readonly backgroundJobs: { readonly running: number };
  readonly checkedAt: string;
}

/**
 * The health of the job queues for `GET /debug-queues`, a public route: counts and ages only,
 * never an id, a name, a subject with an id in it, or a payload. `degraded` when the broker does
 * not answer or the oldest pending outbox entry is older than a minute.
 */
export class ShowJobQueueHealth {
  constructor(private readonly deps: { health: JobQueueHealth; jobs: BackgroundJobs; clock: Clock }) {}

  async execute(): Promise<JobQueueHealthView> {
    const { health, jobs, clock } = this.deps;
    const now = clock.now();
    const [backlog, connected] = await Promise.all([health.outboxBacklog(), health.brokerConnected().catch(() => false)]);
    const oldestAgeSeconds = backlog.oldestCreatedAt ? Math.max(0, Math.floor((now.getTime() - backlog.oldestCreatedAt.getTime()) / 1000)) : null;
    const stale = oldestAgeSeconds !== null && oldestAgeSeconds > OUTBOX_STALE_SECONDS;
    return {
      status: connected && !stale ? 'ok' : 'degraded',
      outbox: { pending: backlog.pending, oldestAgeSeconds, bySubject: { ...backlog.bySubject } },
      broker: { connected },
      backgroundJobs: { running: jobs.runningCount() },
      checkedAt: now.toISOString(),
    };
  }
}
