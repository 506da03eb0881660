import { instantOf, localParts } from '../shared/zoned-time.js';

// The zone arithmetic lives in shared/zoned-time (schedules compute recurrences with it too).
export { instantOf, localParts };

/**
 * The sending window on a company's wall clock, computed with Intl only (no time-zone library):
 * every answer is an instant, found by reading the zone's offset at that instant, so days of a
 * daylight-saving change are right (a window opening at a wall time that does not exist that day
 * opens at the first instant after the gap).
 */
export interface SendingWindow {
  /** Minutes after local midnight: open from `start` (inclusive) to `end` (exclusive); end 1440 is midnight. */
  readonly startMinute: number;
  readonly endMinute: number;
  /** Local weekdays (0 Sunday … 6 Saturday) on which sending is allowed. */
  readonly weekdays: ReadonlySet<number>;
  readonly timeZone: string;
}

/** Whether the window has no limit at all (every day, all day). */
function alwaysOpen(w: SendingWindow): boolean {
  return w.startMinute === 0 && w.endMinute >= 1440 && w.weekdays.size === 7;
}

/** Whether `at` lies inside the window. */
export function isInsideWindow(w: SendingWindow, at: Date | number): boolean {
  if (alwaysOpen(w)) return true;
  const p = localParts(at, w.timeZone);
  return w.weekdays.has(p.weekday) && p.minute >= w.startMinute && p.minute < w.endMinute;
}

/**
 * The first instant at or after `at` inside the window, or null when the window never opens
 * (no weekday allowed, or start not before end).
 */
export function nextOpening(w: SendingWindow, at: Date | number): number | null {
  const t = typeof at === 'number' ? at : at.getTime();
  if (isInsideWindow(w, t)) return t;
  if (w.weekdays.size === 0 || w.startMinute >= w.endMinute) return null;
  const today = localParts(t, w.timeZone);
  for (let d = 0; d <= 8; d++) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + d));
    if (!w.weekdays.has(date.getUTCDay())) continue;
    const y = date.getUTCFullYear(),
      m = date.getUTCMonth() + 1,
      day = date.getUTCDate();
    const open = instantOf(y, m, day, w.startMinute, w.timeZone);
    if (open >= t) return open;
    // Today's window already opened: inside it only if before its end (checked above), so on to tomorrow.
  }
  return null;
}

/** The instant the window that contains `at` closes (null when `at` is outside, or it never closes). */
export function windowEnd(w: SendingWindow, at: Date | number): number | null {
  if (alwaysOpen(w) || !isInsideWindow(w, at)) return null;
  const p = localParts(at, w.timeZone);
  if (w.endMinute >= 1440) {
    const next = new Date(Date.UTC(p.year, p.month - 1, p.day + 1));
    return instantOf(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), 0, w.timeZone);
  }
  return instantOf(p.year, p.month, p.day, w.endMinute, w.timeZone);
}

/** `HH:mm` as minutes after midnight (`24:00` is 1440). */
export function minuteOfDay(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}
