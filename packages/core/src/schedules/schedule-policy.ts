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

/** The session cannot send now: the run fails and is tried again (the job's backoff), nothing written. */
export class ScheduleSendRetry extends Error {
  constructor(readonly reason: string) {
    super(`schedule send waits: ${reason}`);
  }
}
