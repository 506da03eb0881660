import { instantOf, localParts } from '../shared/zoned-time.js';

/**
 * How a schedule repeats. Calendar steps (`days`, `weeks`, `months`, `businessDays`) keep the first
 * moment's wall-clock time on the company's clock, so a weekly 09:00 stays 09:00 across a
 * daylight-saving change, and a time that does not exist that day (a gap) moves to the first
 * instant after it; `minutes` are plain elapsed time. Months keep the first moment's day, or the
 * month's last day when it is shorter (a 31st becomes the 30th, then the 31st again).
 */
export const FREQUENCIES = ['none', 'days', 'weeks', 'months', 'minutes', 'businessDays'] as const;
export type Frequency = (typeof FREQUENCIES)[number];

/**
 * What a calendar step that lands on a Saturday or Sunday does: `any` sends then, `before` moves to
 * the Friday before, `after` to the Monday after (the lineage's `tipoDias` 4, 5 and 6). A moment
 * moved onto one the series already has is that same send (a daily series moved to Mondays sends
 * once on Monday).
 */
export const WEEKEND_RULES = ['any', 'before', 'after'] as const;
export type WeekendRule = (typeof WEEKEND_RULES)[number];

export interface Recurrence {
  readonly frequency: Frequency;
  /** Every how many units (1 or more; ignored for `none`). */
  readonly every: number;
  /** How many sends the series has in all (the lineage's `enviarQuantasVezes`); 0: no limit. */
  readonly count: number;
  /** No moment after this one. */
  readonly until: Date | null;
  readonly weekend: WeekendRule;
}

export const NO_RECURRENCE: Recurrence = { frequency: 'none', every: 0, count: 1, until: null, weekend: 'any' };

/** The lineage's `intervalo` codes (5, business days, is ours). */
export const INTERVAL_CODES: Readonly<Record<number, Exclude<Frequency, 'none'>>> = { 1: 'days', 2: 'weeks', 3: 'months', 4: 'minutes', 5: 'businessDays' };
/** The lineage's `tipoDias` codes. */
export const WEEKEND_CODES: Readonly<Record<number, WeekendRule>> = { 4: 'any', 5: 'before', 6: 'after' };

export function intervalCodeOf(frequency: Frequency): number {
  const found = Object.entries(INTERVAL_CODES).find(([, f]) => f === frequency);
  return found ? Number(found[0]) : 1;
}

export function weekendCodeOf(rule: WeekendRule): number {
  return Number(Object.entries(WEEKEND_CODES).find(([, r]) => r === rule)![0]);
}

/** A series: its rule, where it is anchored, where it started (for `count`) and on which clock. */
export interface Series {
  readonly recurrence: Recurrence;
  readonly anchorAt: Date;
  readonly anchorSequence: number;
  /** The sequence number of the series' first send: `count` counts from here. */
  readonly seriesStart: number;
  readonly timeZone: string;
}

export interface Moment {
  readonly sequence: number;
  readonly at: Date;
}

const DAY_MS = 86_400_000;
const isWeekend = (utcDay: number) => utcDay === 0 || utcDay === 6;
/** A local calendar date as a UTC midnight (date arithmetic only). */
const civil = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

function addBusinessDays(start: number, n: number): number {
  let day = start;
  let left = n;
  while (left > 0 && isWeekend(new Date(day).getUTCDay())) {
    day += DAY_MS;
    if (!isWeekend(new Date(day).getUTCDay())) left--;
  }
  const weeks = Math.floor(left / 5);
  day += weeks * 7 * DAY_MS;
  left -= weeks * 5;
  while (left > 0) {
    day += DAY_MS;
    if (!isWeekend(new Date(day).getUTCDay())) left--;
  }
  return day;
}

function movedOffWeekend(day: number, rule: WeekendRule): number {
  const weekday = new Date(day).getUTCDay();
  if (rule === 'any' || !isWeekend(weekday)) return day;
  if (rule === 'before') return day - (weekday === 6 ? 1 : 2) * DAY_MS;
  return day + (weekday === 6 ? 2 : 1) * DAY_MS;
}

/** The moment of sequence `n` (at or after the anchor) as the rule computes it, before the end is applied. */
export function momentOf(series: Series, n: number): Date {
  const { recurrence: r, anchorAt, anchorSequence, timeZone } = series;
  const k = n - anchorSequence;
  if (k <= 0 || r.frequency === 'none') return anchorAt;
  if (r.frequency === 'minutes') return new Date(anchorAt.getTime() + k * r.every * 60_000);
  const p = localParts(anchorAt, timeZone);
  let day: number;
  switch (r.frequency) {
    case 'days':
      day = civil(p.year, p.month, p.day + k * r.every);
      break;
    case 'weeks':
      day = civil(p.year, p.month, p.day + 7 * k * r.every);
      break;
    case 'businessDays':
      day = addBusinessDays(civil(p.year, p.month, p.day), k * r.every);
      break;
    case 'months': {
      const index = p.month - 1 + k * r.every;
      const year = p.year + Math.floor(index / 12);
      const month = (index % 12) + 1;
      const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
      day = civil(year, month, Math.min(p.day, lastDay));
      break;
    }
  }
  if (r.frequency !== 'businessDays') day = movedOffWeekend(day, r.weekend);
  const d = new Date(day);
  return new Date(instantOf(d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate(), p.minute, timeZone) + p.second * 1000);
}

/** Whether sequence `n` at `at` is still part of the series (its count and end date). */
export function withinEnd(series: Series, n: number, at: Date): boolean {
  const { count, until } = series.recurrence;
  if (count > 0 && n - series.seriesStart + 1 > count) return false;
  return until === null || at.getTime() <= until.getTime();
}

/** Calendar steps that land on a moment the series already has are skipped: this many at most in a row. */
const MAX_COLLAPSED = 8;

/** The moment after `after` in the series, or null when the series ends there. */
export function nextMoment(series: Series, after: Moment): Moment | null {
  if (series.recurrence.frequency === 'none' || series.recurrence.every < 1) return null;
  for (let n = after.sequence + 1; n <= after.sequence + MAX_COLLAPSED; n++) {
    const at = momentOf(series, n);
    if (at.getTime() <= after.at.getTime()) continue;
    return withinEnd(series, n, at) ? { sequence: n, at } : null;
  }
  return null;
}

/** A bound on the moments walked through to find the latest due one (a daily series down for 270 years). */
const MAX_WALK = 100_000;

/**
 * The latest moment of the series at or before `now`, starting from `from` (itself when no later
 * one is due yet). Elapsed-time series jump there at once; calendar ones walk the moments.
 */
export function latestDue(series: Series, from: Moment, now: Date): Moment {
  const r = series.recurrence;
  if (r.frequency === 'minutes' && r.every > 0) {
    const step = r.every * 60_000;
    let n = from.sequence + Math.max(0, Math.floor((now.getTime() - from.at.getTime()) / step));
    if (r.count > 0) n = Math.min(n, series.seriesStart + r.count - 1);
    if (r.until) n = Math.min(n, from.sequence + Math.max(0, Math.floor((r.until.getTime() - from.at.getTime()) / step)));
    for (; n > from.sequence; n--) {
      const at = momentOf(series, n);
      if (at.getTime() <= now.getTime() && withinEnd(series, n, at)) return { sequence: n, at };
    }
    return from;
  }
  let current = from;
  for (let i = 0; i < MAX_WALK; i++) {
    const next = nextMoment(series, current);
    if (!next || next.at.getTime() > now.getTime()) return current;
    current = next;
  }
  return current;
}
