/** The billing screen's pure helpers: amounts, days and whether the company is overdue. */

/** A decimal string of the API (`"99.90"`) as money in the language, in reais (the platform bills in BRL). */
export function money(value: string, language: string): string {
  const n = Number(value);
  if (!Number.isFinite(n)) return value;
  return new Intl.NumberFormat(language, { style: 'currency', currency: 'BRL' }).format(n);
}

/** A calendar day (`YYYY-MM-DD`) in the language, the same day wherever the browser is. */
export function calendarDay(day: string, language: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(day);
  if (!m) return day;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(at);
}

/** A moment (ISO 8601) as a date and time in the language, on the browser's clock. */
export function moment(iso: string, language: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(new Date(iso));
}

/** The browser's calendar day today, as `YYYY-MM-DD`. */
export function today(now = new Date()): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())}`;
}

/**
 * Whether a company whose plan falls due on `dueDate` is overdue: the day is past. (The server
 * suspends it only after its grace days, which it does not publish; overdue is when paying matters.)
 */
export function isOverdue(dueDate: string | null | undefined, now = new Date()): boolean {
  return typeof dueDate === 'string' && /^\d{4}-\d{2}-\d{2}/.test(dueDate) && dueDate.slice(0, 10) < today(now);
}
