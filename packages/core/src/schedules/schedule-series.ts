import type { Clock, Transaction } from '../shared/ports.js';
import { armOccurrence, seriesOf, type ArmingDeps } from './arming.js';
import type { ScheduleOccurrences, Schedules } from './ports.js';
import { nextMoment, type Moment, type Series } from './recurrence.js';
import { finishedStatus, type Schedule, type ScheduleOccurrence } from './schedule.js';
import type { ScheduleAnnouncer } from './schedule-announcer.js';

/** How an occurrence ended. */
export type Outcome =
  | { readonly outcome: 'sent'; readonly ticketId: number | null }
  | { readonly outcome: 'failed'; readonly reason: string }
  | { readonly outcome: 'missed' };

/** The moment an occurrence stands for in its series. */
export const momentOfOccurrence = (o: ScheduleOccurrence): Moment => ({ sequence: o.sequence, at: o.dueAt });

/**
 * A schedule's series on the company's clock, and how it goes on once an occurrence settles: the
 * next moment's pending occurrence and its job, or the schedule's end; its progress written, and
 * its frame after the commit.
 */
export class ScheduleSeries {
  constructor(
    private readonly deps: ArmingDeps & {
      readonly schedules: Schedules;
      readonly occurrences: ScheduleOccurrences;
      readonly clock: Clock;
      readonly tx: Transaction;
      readonly timeZone: (companyId: number) => Promise<string>;
      readonly announcer: ScheduleAnnouncer;
    },
  ) {}

  /** The schedule's series on its company's clock. */
  async of(schedule: Schedule): Promise<Series> {
    return seriesOf(schedule, await this.deps.timeZone(schedule.companyId));
  }

  /** The series goes on with its next moment (a pending occurrence and its job), or the schedule ends; its frame after the commit. */
  async finish(schedule: Schedule, series: Series, settled: Moment, result: Outcome, now: Date): Promise<void> {
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
      void this.deps.announcer.progressed(after).catch(() => undefined);
    });
  }
}
