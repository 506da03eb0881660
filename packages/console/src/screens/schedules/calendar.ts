/**
 * The calendar's days, as `YYYY-MM-DD` keys on the company's clock: pure arithmetic on civil
 * dates (computed in UTC, so no daylight-saving change of the browser's own zone can shift a day).
 */

export type View = 'month' | 'week' | 'day' | 'list';

/** The company-clock day of an instant. */
export function dayKeyOf(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(at).map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}`;
}

const toUtc = (key: string) => {
  const [y, m, d] = key.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
const fromUtc = (d: Date) => d.toISOString().slice(0, 10);

/** The day `n` days after (or before) `key`. */
export function addDays(key: string, n: number): string {
  const d = toUtc(key);
  d.setUTCDate(d.getUTCDate() + n);
  return fromUtc(d);
}

/** The same day `n` months on, or that month's last day when it is shorter. */
export function addMonths(key: string, n: number): string {
  const d = toUtc(key);
  const day = d.getUTCDate();
  const first = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(day, last));
  return fromUtc(first);
}

/** 0 Monday … 6 Sunday. */
export const weekdayOf = (key: string) => (toUtc(key).getUTCDay() + 6) % 7;

/** The Monday that starts the week of `key`. */
export const weekStart = (key: string) => addDays(key, -weekdayOf(key));

/** The seven days of the week of `key`, Monday first. */
export const weekOf = (key: string): string[] => Array.from({ length: 7 }, (_, i) => addDays(weekStart(key), i));

/** The month of `key` as whole weeks (Monday first), with the days of the months around it filling the first and last. */
export function monthGrid(key: string): string[][] {
  const first = `${key.slice(0, 7)}-01`;
  const weeks: string[][] = [];
  let start = weekStart(first);
  const month = key.slice(0, 7);
  do {
    weeks.push(weekOf(start));
    start = addDays(start, 7);
  } while (start.slice(0, 7) === month);
  return weeks;
}

/** Where an arrow key, Home/End or Page Up/Down moves the focused day; null for any other key. */
export function moveByKey(key: string, pressed: string): string | null {
  switch (pressed) {
    case 'ArrowLeft':
      return addDays(key, -1);
    case 'ArrowRight':
      return addDays(key, 1);
    case 'ArrowUp':
      return addDays(key, -7);
    case 'ArrowDown':
      return addDays(key, 7);
    case 'Home':
      return weekStart(key);
    case 'End':
      return addDays(weekStart(key), 6);
    case 'PageUp':
      return addMonths(key, -1);
    case 'PageDown':
      return addMonths(key, 1);
    default:
      return null;
  }
}

/** A key as a Date at noon UTC: safe to format with `timeZone: 'UTC'` for its weekday and month names. */
export const noonOf = (key: string) => new Date(`${key}T12:00:00Z`);

/** The first and last day a view shows around `key`. */
export function rangeOf(view: View, key: string): [string, string] {
  if (view === 'day') return [key, key];
  if (view === 'week') return [weekStart(key), addDays(weekStart(key), 6)];
  const grid = monthGrid(key);
  return [grid[0]![0]!, grid[grid.length - 1]![6]!];
}

/** A schedule's state in the screen's words, from the route's status (`PENDENTE`, `ENVIADA`, `ERRO`, `PERDIDA`). */
export function stateOf(status: string): 'pending' | 'sent' | 'failed' | 'missed' {
  if (status === 'ENVIADA') return 'sent';
  if (status === 'ERRO') return 'failed';
  if (status === 'PERDIDA') return 'missed';
  return 'pending';
}

/** The recurrence units of the schedule routes (`intervalo`): 1 days, 2 weeks, 3 months, 4 minutes, 5 business days. */
export const RECURRENCE_UNITS = { 1: 'days', 2: 'weeks', 3: 'months', 4: 'minutes', 5: 'businessDays' } as const;
export type RecurrenceUnit = (typeof RECURRENCE_UNITS)[keyof typeof RECURRENCE_UNITS];
/** What a moment on a weekend does (`tipoDias` / `tipo_dias_envio`): 4 sent then, 5 the Friday before, 6 the Monday after. */
export const WEEKEND_RULES = { 4: 'send', 5: 'friday', 6: 'monday' } as const;
export type WeekendRule = (typeof WEEKEND_RULES)[keyof typeof WEEKEND_RULES];

/** A recurrence read from the routes' numbers, for saying it in words; null when it is sent once (`every` 0). */
export interface Recurrence {
  readonly unit: RecurrenceUnit;
  readonly every: number;
  /** Sends in all; 0: no limit. */
  readonly count: number;
  readonly weekend: WeekendRule;
  readonly until: string | null;
}

export function recurrenceOf(r: { intervalo: number; every: number; count: number; weekend: number; until: string | null }): Recurrence | null {
  if (r.every <= 0) return null;
  return {
    unit: RECURRENCE_UNITS[r.intervalo as keyof typeof RECURRENCE_UNITS] ?? 'days',
    every: r.every,
    count: r.count,
    weekend: WEEKEND_RULES[r.weekend as keyof typeof WEEKEND_RULES] ?? 'send',
    until: r.until,
  };
}
