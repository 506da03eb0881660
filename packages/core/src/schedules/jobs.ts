import { exponentialBackoff, type JobDefinition } from '../jobs/job.js';
import type { Clock } from '../shared/ports.js';
import { enqueueRun, SEND_JOB, type ArmingDeps, type SendJobPayload } from './arming.js';
import type { ScheduleOccurrences } from './ports.js';
import type { RunScheduleOccurrence, SchedulePolicy } from './run-occurrence.js';

export const ENSURE_JOBS_JOB = 'schedules.ensure-jobs';
/** How often the safety net looks, and how far ahead. */
export const ENSURE_JOBS_EVERY_MS = 60_000;
const ENSURE_JOBS_AHEAD_MS = 2 * ENSURE_JOBS_EVERY_MS;
const ENSURE_JOBS_BATCH = 500;

/**
 * The safety net: every open occurrence due within the next two minutes (or overdue) gets its
 * job enqueued again. Enqueueing is idempotent per key, so one that has its job keeps it; one
 * whose job was lost (removed with the jobs table, or a run that wrote the occurrence and died
 * before enqueueing in a store that cannot roll back) gets a new one. Nothing stays pending unseen.
 */
export class EnsureOccurrenceJobs {
  constructor(private readonly deps: { occurrences: ScheduleOccurrences; jobQueue: ArmingDeps['jobQueue']; clock: Clock }) {}

  async execute(): Promise<number> {
    const now = this.deps.clock.now();
    const open = await this.deps.occurrences.openDueBy(new Date(now.getTime() + ENSURE_JOBS_AHEAD_MS), ENSURE_JOBS_BATCH);
    for (const o of open) await enqueueRun(this.deps, o, o.status === 'pending' ? o.dueAt : now);
    return open.length;
  }
}

/**
 * The schedules' jobs: the one-off run of each occurrence step (atomic: its writes, the message
 * and its send command among them, commit with the job's completion), retried with a growing pause
 * while the session is down, and the recurring safety net.
 */
export function scheduleJobs(deps: { run: RunScheduleOccurrence; ensure: EnsureOccurrenceJobs; policy: SchedulePolicy }): JobDefinition<any>[] {
  const send: JobDefinition<SendJobPayload> = {
    name: SEND_JOB,
    leaseMs: 60_000,
    maxAttempts: deps.policy.maxAttempts,
    backoff: exponentialBackoff(10_000, 300_000),
    run: async (ctx) => {
      await deps.run.execute(ctx.payload, ctx.attempt);
    },
  };
  const ensure: JobDefinition = {
    name: ENSURE_JOBS_JOB,
    every: ENSURE_JOBS_EVERY_MS,
    run: async () => {
      await deps.ensure.execute();
    },
  };
  return [send, ensure];
}
