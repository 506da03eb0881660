import type { BusinessHours } from './company.js';

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/** True for an IANA time zone name this runtime knows (`America/Sao_Paulo`, `UTC`). */
export function isTimeZone(name: string): boolean {
  if (!name || name.length > 64) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const WEEKDAY: Record<string, BusinessHours['weekdayEn']> = {
  Sun: 'sunday',
  Mon: 'monday',
  Tue: 'tuesday',
  Wed: 'wednesday',
  Thu: 'thursday',
  Fri: 'friday',
  Sat: 'saturday',
};

/** The weekday and `HH:mm` of an instant on the wall clock of a time zone. */
export function wallClock(at: Date, timeZone: string): { weekday: BusinessHours['weekdayEn']; time: string } {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { weekday: WEEKDAY[part('weekday')] ?? 'sunday', time: `${part('hour')}:${part('minute')}` };
}

/**
 * Whether `at` falls inside the business hours, read on the time zone's wall clock. No slots at
 * all means no hours were set: always open. Otherwise a day is open only within one of its
 * slots (`startTime` inclusive, `endTime` exclusive); a blank slot or a missing day is closed.
 */
export function isWithinBusinessHours(schedules: readonly BusinessHours[], at: Date, timeZone: string): boolean {
  if (schedules.length === 0) return true;
  const now = wallClock(at, timeZone);
  return schedules.some((s) => s.weekdayEn === now.weekday && s.startTime !== '' && s.endTime !== '' && s.startTime <= now.time && now.time < s.endTime);
}
