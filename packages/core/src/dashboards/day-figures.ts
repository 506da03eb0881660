import type { TicketCycle } from '../tickets/ticket-tracking.js';
import { localDay } from './days.js';

/** The counters and sums kept per day, queue and operator (durations in milliseconds, summed, with how many were summed). */
export const FIGURE_KEYS = [
  'tickets',
  'inbound',
  'outbound',
  'groups',
  'leads',
  'reopened',
  'closed',
  'unattendedClosed',
  'transfers',
  'waitCount',
  'waitMs',
  'handleCount',
  'handleMs',
  'firstResponseCount',
  'firstResponseMs',
  'resolutionCount',
  'resolutionMs',
  'rated',
  'ratingSum',
  'promoters',
  'passives',
  'detractors',
] as const;
export type FigureKey = (typeof FIGURE_KEYS)[number];

/**
 * The figures of the cycles that started on one day (in the company's zone) in one queue with one
 * operator (null: none). A cycle counts on the day it started, whenever it closed.
 */
export type DayFigures = { companyId: number; day: string; queueId: number | null; userId: number | null } & Record<FigureKey, number>;

export type Totals = Record<FigureKey, number>;

export function emptyTotals(): Totals {
  return Object.fromEntries(FIGURE_KEYS.map((k) => [k, 0])) as Totals;
}

/** Adds `row`'s counters into `into`. */
export function addInto(into: Totals, row: Totals): Totals {
  for (const k of FIGURE_KEYS) into[k] += row[k];
  return into;
}

export function sumOf(rows: readonly Totals[]): Totals {
  return rows.reduce((into, row) => addInto(into, row), emptyTotals());
}

/** Ratings 1 to 5: 5 promotes, 4 is passive, 1 to 3 detract (the lineage's 0–10 scale of NPS, on our five stars). */
export function ratingBucket(rating: number): 'promoters' | 'passives' | 'detractors' {
  return rating >= 5 ? 'promoters' : rating === 4 ? 'passives' : 'detractors';
}

const span = (from: Date, to: Date) => Math.max(0, to.getTime() - from.getTime());

/**
 * What one cycle adds to its day. Waiting and first response are the contact's: they count only
 * on cycles the contact started (on ours an operator is there from the first moment). Handling
 * runs from the first acceptance to the close, resolution from the start to the close.
 */
export function cycleTotals(c: TicketCycle): Totals {
  const t = emptyTotals();
  t.tickets = 1;
  if (c.outbound) t.outbound = 1;
  else t.inbound = 1;
  if (c.isGroup) t.groups = 1;
  if (c.firstContact && !c.isGroup) t.leads = 1;
  if (c.reopened) t.reopened = 1;
  t.transfers = c.transfers;
  if (!c.outbound && c.acceptedAt) {
    t.waitCount = 1;
    t.waitMs = span(c.startedAt, c.acceptedAt);
  }
  if (!c.outbound && c.firstResponseAt) {
    t.firstResponseCount = 1;
    t.firstResponseMs = span(c.startedAt, c.firstResponseAt);
  }
  if (c.closedAt) {
    t.closed = 1;
    t.resolutionCount = 1;
    t.resolutionMs = span(c.startedAt, c.closedAt);
    if (c.acceptedAt) {
      t.handleCount = 1;
      t.handleMs = span(c.acceptedAt, c.closedAt);
    }
    if (!c.acceptedAt && !c.firstResponseAt) t.unattendedClosed = 1;
  }
  if (c.rating !== null) {
    t.rated = 1;
    t.ratingSum = c.rating;
    t[ratingBucket(c.rating)] = 1;
  }
  return t;
}

/** The rows of these cycles: one per local day of their start, queue and operator. */
export function figuresOf(companyId: number, cycles: readonly TicketCycle[], timeZone: string): DayFigures[] {
  const rows = new Map<string, DayFigures>();
  for (const c of cycles) {
    const day = localDay(c.startedAt, timeZone);
    const key = `${day}|${c.queueId ?? 0}|${c.userId ?? 0}`;
    let row = rows.get(key);
    if (!row) rows.set(key, (row = { companyId, day, queueId: c.queueId, userId: c.userId, ...emptyTotals() }));
    addInto(row, cycleTotals(c));
  }
  return [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || (a.queueId ?? 0) - (b.queueId ?? 0) || (a.userId ?? 0) - (b.userId ?? 0));
}

/** Minutes with two decimals (0 when nothing was measured): no integer division. */
export function averageMinutes(totalMs: number, count: number): number {
  return count > 0 ? Math.round((totalMs / count / 60_000) * 100) / 100 : 0;
}

/** A share in percent with two decimals (0 of nothing is 0). */
export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 10_000) / 100 : 0;
}
