import { enqueueRun, type ArmingDeps } from './arming.js';
import type { ScheduleDeliveries, ScheduleOccurrences, ScheduleSender } from './ports.js';
import type { Series } from './recurrence.js';
import type { Schedule, ScheduleOccurrence } from './schedule.js';
import { ScheduleSendRetry, type SchedulePolicy } from './schedule-policy.js';
import { momentOfOccurrence, type ScheduleSeries } from './schedule-series.js';

/**
 * The sending of an occurrence's recipients, one a run: the recipients fixed when it starts, then
 * each sent through the schedules' sender, `recipientGapMs` apart, until none is left and the
 * occurrence settles (its series goes on).
 */
export class OccurrenceDelivery {
  constructor(
    private readonly deps: Pick<ArmingDeps, 'jobQueue'> & {
      readonly occurrences: ScheduleOccurrences;
      readonly deliveries: ScheduleDeliveries;
      readonly sender: ScheduleSender;
      readonly series: ScheduleSeries;
      readonly policy: SchedulePolicy;
    },
  ) {}

  /** A pending occurrence starts sending to these recipients (none if another run started it), its first one now. */
  async start(
    schedule: Schedule,
    series: Series,
    occurrence: ScheduleOccurrence,
    contactIds: readonly number[],
    connectionId: number,
    now: Date,
  ): Promise<void> {
    const { companyId } = occurrence;
    const started = { ...occurrence, status: 'sending' as const, step: 1, recipients: contactIds.length, updatedAt: now };
    if (
      !(await this.deps.occurrences.transition(companyId, occurrence.id, ['pending'], 'sending', { step: 1, recipients: contactIds.length, updatedAt: now }, 0))
    )
      return;
    await this.deps.deliveries.addMany(contactIds.map((contactId) => ({ companyId, occurrenceId: occurrence.id, contactId })));
    return this.sendOne(schedule, series, started, connectionId, now);
  }

  /** A later run of a bulk occurrence: its next recipient. */
  async next(schedule: Schedule, series: Series, o: ScheduleOccurrence, now: Date, finalTry: boolean): Promise<void> {
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
    return this.deps.series.finish(
      schedule,
      series,
      momentOfOccurrence(o),
      reason === null ? { outcome: 'sent', ticketId } : { outcome: 'failed', reason },
      now,
    );
  }
}
