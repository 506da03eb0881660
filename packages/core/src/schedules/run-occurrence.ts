import type { Contacts } from '../contacts/ports.js';
import type { Clock } from '../shared/ports.js';
import type { SendJobPayload } from './arming.js';
import type { OccurrenceDelivery } from './occurrence-delivery.js';
import type { ScheduleOccurrences, Schedules, ScheduleSender } from './ports.js';
import { recipientsOf } from './recipients.js';
import { latestDue, type Series } from './recurrence.js';
import { OPEN_OCCURRENCE, type Schedule, type ScheduleOccurrence } from './schedule.js';
import { ScheduleSendRetry, type SchedulePolicy } from './schedule-policy.js';
import { momentOfOccurrence, type ScheduleSeries } from './schedule-series.js';

export { DEFAULT_SCHEDULE_POLICY, ScheduleSendRetry, type SchedulePolicy } from './schedule-policy.js';

/** A job that finds its occurrence due this much later than now stops: its moment moved, and its own job comes then. */
const EARLY_MS = 60_000;

export interface RunOccurrenceDeps {
  readonly schedules: Schedules;
  readonly occurrences: ScheduleOccurrences;
  /** Who an occurrence goes to, read when it starts. */
  readonly contacts: Contacts;
  /** Whether the schedule's connection can send now. */
  readonly sender: ScheduleSender;
  readonly clock: Clock;
  /** The schedule's series, and how it goes on once an occurrence settles. */
  readonly series: ScheduleSeries;
  /** The sending of a started occurrence's recipients. */
  readonly delivery: OccurrenceDelivery;
  readonly policy: SchedulePolicy;
}

/**
 * One run of an occurrence's job, in one transaction with the job's completion (so its effect
 * happens once, whichever instance runs it and whatever crashes). Each run first moves the
 * occurrence on with a conditional update (pending → sending, then one step after another): of
 * two runs for the same step only one gets past it, the other changes nothing.
 *
 * A pending occurrence whose moment is due: when later moments of its series are due too (every
 * instance was down across several), it stands for the latest of them and the earlier ones are
 * skipped, so a restart never sends a burst of copies; when even the latest is more than
 * `missedAfterMs` late it is `missed` instead. Otherwise its recipients are fixed and the first
 * one is sent; a bulk occurrence sends the next one a run, `recipientGapMs` apart. Once none is
 * left it is `sent` (or `failed` when no recipient got it) and the series' next moment becomes the
 * next pending occurrence, with its job. A session that is not connected makes the run fail and
 * be tried again later; after the last try the occurrence (or the remaining recipients) fail with
 * `ERR_SESSION_NOT_CONNECTED`.
 */
export class RunScheduleOccurrence {
  constructor(private readonly deps: RunOccurrenceDeps) {}

  async execute(payload: SendJobPayload, attempt = 1): Promise<void> {
    const { schedules, occurrences, clock, policy } = this.deps;
    const { companyId } = payload;
    const now = clock.now();
    const found = await occurrences.findById(companyId, payload.occurrenceId);
    if (!found || !OPEN_OCCURRENCE.includes(found.status) || found.step !== payload.step) return;
    if (found.status === 'pending' && found.dueAt.getTime() > now.getTime() + EARLY_MS) return;
    const schedule = await schedules.findById(companyId, found.scheduleId);
    if (!schedule) return;
    const series = await this.deps.series.of(schedule);
    const finalTry = attempt >= policy.maxAttempts;
    if (found.status === 'sending') return this.deps.delivery.next(schedule, series, found, now, finalTry);

    const latest = latestDue(series, momentOfOccurrence(found), now);
    if (now.getTime() - latest.at.getTime() > policy.missedAfterMs) {
      if (!(await occurrences.transition(companyId, found.id, ['pending'], 'missed', { settledAt: now, updatedAt: now }, found.step))) return;
      return this.deps.series.finish(schedule, series, latest, { outcome: 'missed' }, now);
    }
    const via = await this.deps.sender.connection(companyId, schedule.connectionId);
    if (!via.ok && via.retryable && !finalTry) throw new ScheduleSendRetry(via.reason);
    let occurrence = found;
    if (latest.sequence > found.sequence) {
      if (!(await occurrences.transition(companyId, found.id, ['pending'], 'missed', { settledAt: now, updatedAt: now }, found.step))) return;
      occurrence = await occurrences.add({
        companyId,
        scheduleId: found.scheduleId,
        sequence: latest.sequence,
        dueAt: latest.at,
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
    }
    if (!via.ok) return this.fail(schedule, series, occurrence, via.reason, now);
    const contactIds = await recipientsOf(this.deps.contacts, schedule);
    if (!contactIds.length) return this.fail(schedule, series, occurrence, 'ERR_SCHEDULE_NO_RECIPIENTS', now);
    return this.deps.delivery.start(schedule, series, occurrence, contactIds, via.connectionId, now);
  }

  /** The occurrence fails before any recipient was tried (no connection, nobody to send to). */
  private async fail(schedule: Schedule, series: Series, o: ScheduleOccurrence, reason: string, now: Date): Promise<void> {
    const patch = { failureReason: reason, settledAt: now, updatedAt: now };
    if (!(await this.deps.occurrences.transition(o.companyId, o.id, ['pending'], 'failed', patch, o.step))) return;
    return this.deps.series.finish(schedule, series, momentOfOccurrence(o), { outcome: 'failed', reason }, now);
  }
}
