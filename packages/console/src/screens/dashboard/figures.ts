/**
 * The dashboard's pure parts: the range and filters as each route spells them, minutes in words,
 * the refresh's `Retry-After`, and the summary a screen reader hears for a chart.
 */

/** A calendar day as the routes take it (`YYYY-MM-DD`), from this browser's clock. */
export function isoDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The last `days` days, today included (the routes' own default is 30). */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  const from = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (days - 1));
  return { from: isoDay(from), to: isoDay(now) };
}

/** What the dashboard is asked for: a range of days and, optionally, one queue and one operator. */
export interface DashboardFilter {
  readonly from: string;
  readonly to: string;
  readonly queueId: number | null;
  readonly userId: number | null;
}

const ids = (id: number | null) => (id === null ? undefined : [id]);

/** `/dashboard`, `/dashboard/extended-metrics`, `/dashboard/top-contacts`: `date_from`/`date_to`. */
export function rangeQuery(f: DashboardFilter) {
  return {
    date_from: f.from,
    date_to: f.to,
    ...(f.queueId !== null ? { queueIds: ids(f.queueId) } : {}),
    ...(f.userId !== null ? { userIds: ids(f.userId) } : {}),
  };
}

/** `/dashboard/ticketsDay` and `/dashboard/ticketsUsers`: the charts' `initialDate`/`finalDate`. */
export function chartQuery(f: DashboardFilter) {
  return {
    initialDate: f.from,
    finalDate: f.to,
    ...(f.queueId !== null ? { queueIds: ids(f.queueId) } : {}),
    ...(f.userId !== null ? { userIds: ids(f.userId) } : {}),
  };
}

/** Whole days from `from` to `to`, both included (0 when reversed). */
export function daysBetween(from: string, to: string): number {
  const a = Date.parse(`${from}T00:00:00Z`);
  const b = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(a) || Number.isNaN(b) || b < a) return 0;
  return Math.round((b - a) / 86_400_000) + 1;
}

/**
 * A mean duration given in minutes, in words: "—" when none was measured, seconds under a
 * minute, minutes with one decimal under an hour, else hours and minutes.
 */
export function durationText(minutes: number, language: string, units: { none: string; seconds: string; minutes: string; hours: string }): string {
  if (!Number.isFinite(minutes) || minutes <= 0) return units.none;
  const number = (n: number, digits: number) => new Intl.NumberFormat(language, { maximumFractionDigits: digits }).format(n);
  if (minutes < 1) return units.seconds.replace('{{n}}', number(Math.round(minutes * 60), 0));
  if (minutes < 60) return units.minutes.replace('{{n}}', number(minutes, 1));
  const h = Math.floor(minutes / 60);
  const m = Math.round(minutes - h * 60);
  return units.hours.replace('{{h}}', number(h, 0)).replace('{{m}}', String(m).padStart(2, '0'));
}

/**
 * Seconds to wait from a `Retry-After` header (seconds, or an HTTP date), at least 1; the
 * server's 30-second window when the header is missing or unreadable.
 */
export function retryAfterSeconds(header: string | null, now = Date.now(), fallback = 30): number {
  if (header) {
    const trimmed = header.trim();
    if (/^\d+$/.test(trimmed)) return Math.max(1, Number(trimmed));
    const at = Date.parse(trimmed);
    if (!Number.isNaN(at)) return Math.max(1, Math.ceil((at - now) / 1000));
  }
  return fallback;
}

/** One bar or point of a chart: its label and value. */
export interface Point {
  readonly label: string;
  readonly value: number;
}

/** What a screen reader hears instead of a chart: the total, the highest bar, how many are empty. */
export function chartSummary(points: readonly Point[]): { total: number; top: Point | null; empty: number } {
  let total = 0;
  let top: Point | null = null;
  let empty = 0;
  for (const p of points) {
    total += p.value;
    if (p.value === 0) empty++;
    if (p.value > 0 && (!top || p.value > top.value)) top = p;
  }
  return { total, top, empty };
}
