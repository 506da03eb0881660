import type { Plan } from '../tenancy/plan.js';

const MONTHS: Record<Plan['recurrence'], number> = { MENSAL: 1, BIMESTRAL: 2, TRIMESTRAL: 3, SEMESTRAL: 6, ANUAL: 12 };
const DAY_MS = 86_400_000;

/** The UTC calendar day (`YYYY-MM-DD`) of an instant: billing counts days in UTC. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

const parse = (day: string) => new Date(`${day}T00:00:00.000Z`);

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((parse(to).getTime() - parse(from).getTime()) / DAY_MS);
}

/** `months` later, on the same day of the month or the month's last one (31 January + 1 month = 28 or 29 February). */
export function addMonths(day: string, months: number): string {
  const d = parse(day);
  const year = d.getUTCFullYear();
  const month = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return dayOf(new Date(Date.UTC(year, month, Math.min(d.getUTCDate(), last))));
}

/**
 * The due date after a payment: one period of the plan from the later of the current due date and
 * the day of payment, so paying early loses no day and paying late does not buy days already used.
 */
export function extendedDueDate(dueDate: string | null, paidAt: Date, recurrence: Plan['recurrence']): string {
  const paidDay = dayOf(paidAt);
  const from = dueDate && dueDate > paidDay ? dueDate : paidDay;
  return addMonths(from, MONTHS[recurrence] ?? 1);
}
