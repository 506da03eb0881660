import type { Contacts } from '../contacts/ports.js';
import type { RealtimeEvents } from '../realtime/ports.js';
import type { Clock, Transaction } from '../shared/ports.js';
import { armOccurrence, enqueueRun, seriesOf, type ArmingDeps, type SendJobPayload } from './arming.js';
import type { ScheduleDeliveries, ScheduleOccurrences, Schedules, ScheduleSender } from './ports.js';
import { recipientsOf } from './recipients.js';
import { latestDue, nextMoment, type Moment, type Series } from './recurrence.js';
import { finishedStatus, OPEN_OCCURRENCE, type Schedule, type ScheduleOccurrence } from './schedule.js';
import type { ScheduledMessageEvent, ScheduleEvent } from './schedule-events.js';
import { scheduledMessageView, type ScheduleViews } from './schedule-view.js';

/** When occurrences count as missed, how bulk sends are spaced, and how long a down session is waited for. */
export interface SchedulePolicy {
  /** An occurrence whose latest due moment is later than this is missed instead of sent (`SCHEDULE_MISSED_AFTER_HOURS`). */
  readonly missedAfterMs: number;
  /** Between two recipients of one bulk occurrence (`SCHEDULED_MESSAGES_GAP_MS`). */
  readonly recipientGapMs: number;
  /** Tries of a run whose session is not connected before the occurrence (or the recipient) fails with that reason. */
  readonly maxAttempts: number;
}

export const DEFAULT_SCHEDULE_POLICY: SchedulePolicy = { missedAfterMs: 24 * 3_600_000, recipientGapMs: 5_000, maxAttempts: 8 };

/** A job that finds its occurrence due this much later than now stops: its moment moved, and its own job comes then. */
const EARLY_MS = 60_000;

/** The session cannot send now: the run fails and is tried again (the job's backoff), nothing written. */
export class ScheduleSendRetry extends Error {
  constructor(readonly reason: string) {
    super(`schedule send waits: ${reason}`);
  }
}

export interface RunOccurrenceDeps extends ArmingDeps {
  readonly schedules: Schedules;
  readonly occurrences: ScheduleOccurrences;
  readonly deliveries: ScheduleDeliveries;
  readonly contacts: Contacts;
  readonly sender: ScheduleSender;
  readonly tx: Transaction;
  readonly clock: Clock;
  readonly timeZone: (companyId: number) => Promise<string>;
  readonly realtime: RealtimeEvents<ScheduleEvent | ScheduledMessageEvent>;
  readonly views: ScheduleViews;
  readonly policy: SchedulePolicy;
}

type Outcome =
  | { readonly outcome: 'sent'; readonly ticketId: number | null }
  | { readonly outcome: 'failed'; readonly reason: string }
  | { readonly outcome: 'missed' };

const momentOfOccurrence = (o: ScheduleOccurrence): Moment => ({ sequence: o.sequence, at: o.dueAt });

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
    const { schedules, occurrences, clock, timeZone, policy } = this.deps;
    const { companyId } = payload;
    const now = clock.now();
    const found = await occurrences.findById(companyId, payload.occurrenceId);
    if (!found || !OPEN_OCCURRENCE.includes(found.status) || found.step !== payload.step) return;
    if (found.status === 'pending' && found.dueAt.getTime() > now.getTime() + EARLY_MS) return;
    const schedule = await schedules.findById(companyId, found.scheduleId);
    if (!schedule) return;
    const series = seriesOf(schedule, await timeZone(companyId));
    const finalTry = attempt >= policy.maxAttempts;
    if (found.status === 'sending') return this.nextRecipient(schedule, series, found, now, finalTry);

    const latest = latestDue(series, momentOfOccurrence(found), now);
    if (now.getTime() - latest.at.getTime() > policy.missedAfterMs) {
      if (!(await occurrences.transition(companyId, found.id, ['pending'], 'missed', { settledAt: now, updatedAt: now }, found.step))) return;
      return this.finish(schedule, series, latest, { outcome: 'missed' }, now);
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
    const started = { ...occurrence, status: 'sending' as const, step: 1, recipients: contactIds.length, updatedAt: now };
    if (!(await occurrences.transition(companyId, occurrence.id, ['pending'], 'sending', { step: 1, recipients: contactIds.length, updatedAt: now }, 0)))
      return;
    await this.deps.deliveries.addMany(contactIds.map((contactId) => ({ companyId, occurrenceId: occurrence.id, contactId })));
    return this.sendOne(schedule, series, started, via.connectionId, now);
  }

  /** A later run of a bulk occurrence: its next recipient. */
  private async nextRecipient(schedule: Schedule, series: Series, o: ScheduleOccurrence, now: Date, finalTry: boolean): Promise<void> {
    const { occurrences, deliveries, sender } = this.deps;
    const via = await sender.connection(o.companyId, schedule.connectionId);
    if (!via.ok && via.retryable && !finalTry) throw new ScheduleSendRetry(via.reason);
    const step = { ...o, step: o.step + 1, updatedAt: now };
    if (!(await occurrences.transition(o.companyId, o.id, ['sending'], 'sending', { step: step.step, updatedAt: now }, o.step))) return;
    if (via.ok) return this.sendOne(schedule, series, step, via.connectionId, now);
    await deliveries.failPending(o.companyId, o.id, via.reason);
    return this.settle(schedule, series, step, now, null);
  }

  /** Sends the occurrence's next recipient, then either enqueues the run for the one after or settles the occurrence. */
  private async sendOne(schedule: Schedule, series: Series, o: ScheduleOccurrence, connectionId: number, now: Date): Promise<void> {
    const { deliveries, occurrences, sender, policy } = this.deps;
    const delivery = await deliveries.nextPending(o.companyId, o.id);
    let ticketId: number | null = null;
    if (delivery) {
      const result = await sender.send({
        companyId: o.companyId,
        connectionId,
        contactId: delivery.contactId,
        body: schedule.body,
        media: schedule.media,
        openTicket: schedule.openTicket,
        statusTicket: schedule.statusTicket,
        ticketUserId: schedule.ticketUserId,
        queueId: schedule.queueId,
        userId: schedule.signUserId ?? schedule.userId,
        sign: schedule.sign,
      });
      if (result.ok) ticketId = result.ticketId;
      await deliveries.settle(
        o.companyId,
        delivery.id,
        result.ok
          ? { status: 'sent', messageId: result.messageId, ticketId: result.ticketId, failureReason: null, sentAt: now }
          : { status: 'failed', messageId: null, ticketId: null, failureReason: result.reason, sentAt: null },
      );
    }
    const counts = await deliveries.counts(o.companyId, o.id);
    if (counts.pending === 0) return this.settle(schedule, series, o, now, ticketId);
    await occurrences.transition(o.companyId, o.id, ['sending'], 'sending', { sent: counts.sent, failed: counts.failed, updatedAt: now }, o.step);
    await enqueueRun(this.deps, o, new Date(now.getTime() + policy.recipientGapMs));
  }

  /** Every recipient is settled: the occurrence is sent (one got it) or failed (with the first recipient's reason). */
  private async settle(schedule: Schedule, series: Series, o: ScheduleOccurrence, now: Date, ticketId: number | null): Promise<void> {
    const counts = await this.deps.deliveries.counts(o.companyId, o.id);
    const reason =
      counts.sent > 0
        ? null
        : ((await this.deps.deliveries.listOf(o.companyId, o.id, 50)).find((d) => d.failureReason)?.failureReason ?? 'ERR_SCHEDULE_NO_RECIPIENTS');
    const outcome = counts.sent > 0 ? 'sent' : 'failed';
    const patch = { sent: counts.sent, failed: counts.failed, failureReason: reason, settledAt: now, updatedAt: now };
    if (!(await this.deps.occurrences.transition(o.companyId, o.id, ['sending'], outcome, patch, o.step))) return;
    return this.finish(schedule, series, momentOfOccurrence(o), reason === null ? { outcome: 'sent', ticketId } : { outcome: 'failed', reason }, now);
  }

  /** The occurrence fails before any recipient was tried (no connection, nobody to send to). */
  private async fail(schedule: Schedule, series: Series, o: ScheduleOccurrence, reason: string, now: Date): Promise<void> {
    const patch = { failureReason: reason, settledAt: now, updatedAt: now };
    if (!(await this.deps.occurrences.transition(o.companyId, o.id, ['pending'], 'failed', patch, o.step))) return;
    return this.finish(schedule, series, momentOfOccurrence(o), { outcome: 'failed', reason }, now);
  }

  /** The series goes on with its next moment (a pending occurrence and its job), or the schedule ends; its frame after the commit. */
  private async finish(schedule: Schedule, series: Series, settled: Moment, result: Outcome, now: Date): Promise<void> {
    const next = nextMoment(series, settled);
    if (next) await armOccurrence(this.deps, schedule, next);
    const sent = result.outcome === 'sent';
    const progress = {
      status: next ? ('PENDENTE' as const) : finishedStatus(result.outcome),
      sendAt: next ? next.at : settled.at,
      sentAt: sent ? now : schedule.sentAt,
      sentCount: schedule.sentCount + (sent ? 1 : 0),
      lastError: result.outcome === 'failed' ? result.reason : sent ? null : schedule.lastError,
      ticketId: sent && result.ticketId !== null ? result.ticketId : schedule.ticketId,
      updatedAt: now,
    };
    await this.deps.schedules.recordProgress(schedule.companyId, schedule.id, progress);
    const after = { ...schedule, ...progress };
    this.deps.tx.afterCommit(() => {
      void (async () => {
        if (after.kind !== 'contact') {
          await this.deps.realtime.publish(after.companyId, {
            entity: 'scheduledMessage',
            data: { action: 'update', scheduledMessage: scheduledMessageView(after) },
          });
          return;
        }
        const view = await this.deps.views.view(after);
        await this.deps.realtime.publish(after.companyId, { entity: 'schedule', data: { action: 'update', schedule: view } });
      })().catch(() => undefined);
    });
  }
}
