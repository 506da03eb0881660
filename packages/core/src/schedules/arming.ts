import type { Jobs } from '../jobs/jobs.js';
import type { Clock } from '../shared/ports.js';
import type { ScheduleOccurrences } from './ports.js';
import type { Moment, Series } from './recurrence.js';
import type { Schedule, ScheduleOccurrence } from './schedule.js';

/** The one-off job that runs an occurrence (one run per step: a bulk occurrence sends one recipient a run). */
export const SEND_JOB = 'schedules.send';

export interface SendJobPayload {
  readonly companyId: number;
  readonly occurrenceId: number;
  /** The occurrence's step this run is for: a run finding another step stops (another run had it). */
  readonly step: number;
}

/** One pending job per occurrence and step: the occurrence's id (then `<id>:<step>` for a bulk occurrence's later recipients). */
export function sendJobKey(occurrenceId: number, step: number): string {
  return step === 0 ? String(occurrenceId) : `${occurrenceId}:${step}`;
}

export interface ArmingDeps {
  readonly occurrences: ScheduleOccurrences;
  readonly jobQueue: Pick<Jobs, 'enqueue' | 'cancel'>;
  readonly clock: Clock;
}

/** The series of a schedule on the company's clock. */
export function seriesOf(schedule: Schedule, timeZone: string): Series {
  return { recurrence: schedule.recurrence, anchorAt: schedule.anchorAt, anchorSequence: schedule.anchorSequence, seriesStart: schedule.seriesStart, timeZone };
}

/** Enqueues the run of an occurrence's current step (idempotent: an existing pending job of that key stays). */
export async function enqueueRun(deps: Pick<ArmingDeps, 'jobQueue'>, o: Pick<ScheduleOccurrence, 'id' | 'companyId' | 'step'>, at: Date): Promise<void> {
  const payload: SendJobPayload = { companyId: o.companyId, occurrenceId: o.id, step: o.step };
  await deps.jobQueue.enqueue({ name: SEND_JOB, at, key: sendJobKey(o.id, o.step), payload });
}

/** The pending occurrence of a moment and its job, in the caller's transaction. */
export async function armOccurrence(deps: ArmingDeps, schedule: Pick<Schedule, 'id' | 'companyId'>, moment: Moment): Promise<ScheduleOccurrence> {
  const now = deps.clock.now();
  const occurrence = await deps.occurrences.add({
    companyId: schedule.companyId,
    scheduleId: schedule.id,
    sequence: moment.sequence,
    dueAt: moment.at,
    status: 'pending',
    step: 0,
    recipients: 0,
    sent: 0,
    failed: 0,
    failureReason: null,
    settledAt: null,
    createdAt: now,
    updatedAt: now,
  });
  await enqueueRun(deps, occurrence, moment.at);
  return occurrence;
}

/** Removes the waiting job of an open occurrence (its schedule was deleted, or its moment moved). */
export async function cancelRun(deps: Pick<ArmingDeps, 'jobQueue'>, o: Pick<ScheduleOccurrence, 'id' | 'step'>): Promise<void> {
  await deps.jobQueue.cancel(SEND_JOB, sendJobKey(o.id, o.step));
}
