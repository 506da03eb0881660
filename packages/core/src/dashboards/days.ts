import { instantOf, localParts } from '../shared/zoned-time.js';

/**
 * Calendar days (`YYYY-MM-DD`) on a company's wall clock. A day is the span between two local
 * midnights, found for each day in its zone: a day of a daylight-saving change lasts 23 or 25 hours.
 */

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The local date of an instant in the zone. */
export function localDay(at: Date | number, timeZone: string): string {
  const p = localParts(at, timeZone);
  return `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
}

/** The local hour (0–23) of an instant; the repeated hour of a change back counts as one. */
export function localHour(at: Date | number, timeZone: string): number {
  return Math.floor(localParts(at, timeZone).minute / 60);
}

/** A real calendar day, or null. */
export function parseDay(text: string): string | null {
  const m = DAY.exec(text);
  if (!m) return null;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return Number(m[1]) >= 1970 && d.toISOString().slice(0, 10) === text ? text : null;
}

/** The day `n` days after (before, when negative). */
export function addDays(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included (0 when `to` is before `from`). */
export function dayCount(from: string, to: string): number {
  return Math.max(0, Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1);
}

/** The first instant of the local day. */
export function dayStartIn(day: string, timeZone: string): Date {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(instantOf(y, m, d, 0, timeZone));
}

/** Every day from `from` to `to`, both included, in order. */
export function eachDay(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** The Monday of the ISO week of a day. */
export function weekOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** `dd/mm/YYYY`, the lineage client's label of a day. */
export function brazilianDay(day: string): string {
  return `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
}
