/**
 * Wall-clock time in a time zone, computed with Intl only (no time-zone library): every answer is
 * an instant, found by reading the zone's offset at that instant, so days of a daylight-saving
 * change are right. Campaign windows and schedule recurrences are both computed with it.
 */

export interface LocalParts {
  year: number;
  month: number;
  day: number;
  minute: number;
  weekday: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** The wall-clock date, minute of the day and weekday (0 Sunday … 6 Saturday) of an instant in a zone. */
export function localParts(at: Date | number, timeZone: string): LocalParts & { second: number } {
  const p: Record<string, number> = {};
  for (const part of formatter(timeZone).formatToParts(at)) if (part.type !== 'literal') p[part.type] = Number(part.value);
  const weekday = new Date(Date.UTC(p.year!, p.month! - 1, p.day!)).getUTCDay();
  return { year: p.year!, month: p.month!, day: p.day!, minute: p.hour! * 60 + p.minute!, second: p.second!, weekday };
}

/** The zone's offset (local minus UTC, ms) at an instant. */
function offsetAt(at: number, timeZone: string): number {
  const p = localParts(at, timeZone);
  const wall = Date.UTC(p.year, p.month - 1, p.day, 0, p.minute, p.second);
  return wall - Math.floor(at / 1000) * 1000;
}

function wallOf(at: number, timeZone: string): number {
  const p = localParts(at, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day, 0, p.minute, p.second);
}

/**
 * The first instant whose wall-clock time in the zone is `minute` of the given local date, or,
 * when that wall time does not exist (a daylight-saving gap), the first instant after the gap.
 * An hour that happens twice (the clocks go back) answers its first occurrence.
 */
export function instantOf(year: number, month: number, day: number, minute: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day, 0, minute);
  // Two offsets around the wanted instant: the earlier candidate answers an ambiguous (repeated) hour with its first occurrence.
  const candidates = [wall - offsetAt(wall - 86_400_000 / 2, timeZone), wall - offsetAt(wall + 86_400_000 / 2, timeZone), wall - offsetAt(wall, timeZone)];
  const exact = candidates.filter((c) => wallOf(c, timeZone) === wall).sort((a, b) => a - b);
  if (exact.length) return exact[0]!;
  // In a gap: the transition lies between the candidates; the first instant whose wall time is past `wall`.
  let lo = Math.min(...candidates),
    hi = Math.max(...candidates);
  while (hi - lo > 1000) {
    const mid = Math.floor((lo + hi) / 2000) * 1000;
    if (wallOf(mid, timeZone) >= wall) hi = mid;
    else lo = mid;
  }
  return hi;
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,3})?)?$/;
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** Years a moment may name (the database has no year 0, and nothing is planned for the year 9999). */
const inYearRange = (year: number) => year >= 1970 && year <= 9998;

/**
 * A moment as clients write it: an ISO 8601 time with its offset as it says, or a time without one
 * (the lineage client's `YYYY-MM-DD HH:mm[:ss]`, or a `datetime-local` input's `YYYY-MM-DDTHH:mm`)
 * on the zone's wall clock. Null when it is neither, or names a day that does not exist.
 */
export function parseWallClockTime(text: string, timeZone: string): Date | null {
  const trimmed = text.trim();
  const m = LOCAL_TIME.exec(WITH_OFFSET.test(trimmed) ? trimmed.replace(/(?:Z|[+-]\d{2}:?\d{2})$/i, '').replace(/(\.\d{3})\d+$/, '$1') : trimmed);
  if (!m || !inYearRange(Number(m[1]))) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [number, number, number, number, number, number];
  // Date.parse rolls an impossible day over ("02-30" → March 1st): the calendar is checked first.
  const probe = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59)
    return null;
  if (WITH_OFFSET.test(trimmed)) {
    const at = Date.parse(trimmed);
    return Number.isFinite(at) ? new Date(at) : null;
  }
  return new Date(instantOf(year, month, day, hour * 60 + minute, timeZone) + second * 1000);
}
