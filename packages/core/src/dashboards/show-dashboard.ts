import type { Users } from '../identity/ports.js';
import type { Queues } from '../queues/ports.js';
import type { Settings } from '../settings/ports.js';
import type { Actor } from '../shared/actor.js';
import type { Clock } from '../shared/ports.js';
import type { DashboardCache } from './dashboard-cache.js';
import { figureScope, rangeFor, type DashboardRange, type FigureScope, type RangeInput } from './dashboard-scope.js';
import { addInto, averageMinutes, emptyTotals, percent, sumOf, type Totals } from './day-figures.js';
import type { DashboardFigures, FigureFilter, TicketCycles } from './ports.js';

export interface FigureDeps {
  figures: DashboardFigures;
  cycles: TicketCycles;
  users: Users;
  queues: Queues;
  settings: Settings;
  clock: Clock;
  answers: DashboardCache;
}

/** What every dashboard route takes: the range, the queues and operators, and whether to skip the cached answer. */
export interface FigureQuery extends RangeInput, FigureFilter {
  readonly actor: Actor;
  /** Compute again instead of answering the cached copy (`Cache-Control: no-cache`). */
  readonly fresh?: boolean;
}

/** The stored figures of a range, summed in all and per operator (plain JSON: it is what the cache keeps). */
export interface RangeFigures {
  readonly totals: Totals;
  readonly perUser: ReadonlyArray<{ readonly userId: number | null; readonly totals: Totals }>;
  readonly perDay: ReadonlyArray<{ readonly day: string; readonly totals: Totals }>;
  /** When the figures were last brought up to date (ISO), null before the first refresh. */
  readonly refreshedAt: string | null;
}

export interface Resolved {
  readonly scope: FigureScope;
  readonly range: DashboardRange;
}

/** The scope and range of a dashboard request, checked. */
export async function resolve(deps: FigureDeps, q: FigureQuery): Promise<Resolved> {
  const scope = await figureScope(deps, q.actor, { ...(q.queueIds ? { queueIds: q.queueIds } : {}), ...(q.userIds ? { userIds: q.userIds } : {}) });
  return { scope, range: await rangeFor(deps, q.actor.companyId, q) };
}

/** The pre-aggregated rows of the range, summed, through the cache. */
export async function rangeFigures(deps: FigureDeps, { scope, range }: Resolved, fresh: boolean): Promise<RangeFigures> {
  const params = { from: range.fromDay, to: range.toDay, zone: range.timeZone, ...scope.filter };
  return deps.answers.remember(scope.companyId, 'range-figures', params, fresh, async () => {
    const rows = await deps.figures.byDayAndUser(scope.companyId, range.fromDay, range.toDay, scope.filter);
    const users = new Map<number | null, Totals>();
    const days = new Map<string, Totals>();
    for (const row of rows) {
      addInto(users.get(row.userId) ?? users.set(row.userId, emptyTotals()).get(row.userId)!, row);
      addInto(days.get(row.day) ?? days.set(row.day, emptyTotals()).get(row.day)!, row);
    }
    const state = await deps.figures.state(scope.companyId);
    return {
      totals: sumOf(rows),
      perUser: [...users].map(([userId, totals]) => ({ userId, totals })),
      perDay: [...days].sort(([a], [b]) => a.localeCompare(b)).map(([day, totals]) => ({ day, totals })),
      refreshedAt: state?.refreshedAt.toISOString() ?? null,
    };
  });
}

/** The lineage's counters, computed with decimals (minutes and percentages to two places). */
export interface DashboardCounters {
  /** Cycles started in the period. */
  tickets: number;
  avgSupportTime: number;
  avgWaitTime: number;
  avgFirstResponseTime: number;
  avgResolutionTime: number;
  supportFinished: number;
  /** Cycles of the period still open now, with an operator / waiting for one. */
  supportHappening: number;
  supportPending: number;
  supportGroups: number;
  leads: number;
  activeTickets: number;
  passiveTickets: number;
  reopened: number;
  transfers: number;
  /** Closed without any operator taking or answering them (the bot, or a housekeeping close). */
  unattendedClosed: number;
  /** No rating request is ever left waiting here: ratings are given when the ticket closes. */
  waitRating: number;
  withoutRating: number;
  withRating: number;
  percRating: number;
  avgRating: number;
  npsPromotersPerc: number;
  npsPassivePerc: number;
  npsDetractorsPerc: number;
  npsScore: number;
}

export interface Attendant {
  id: number;
  name: string;
  online: boolean;
  tickets: number;
  closed: number;
  avgWaitTime: number;
  avgSupportTime: number;
  avgFirstResponseTime: number;
  rating: number;
  countRating: number;
}

export interface DashboardAnswer {
  counters: DashboardCounters;
  attendants: Attendant[];
  period: { dateFrom: string; dateTo: string; timeZone: string };
  refreshedAt: string | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export function countersOf(t: Totals, open: { waiting: number; attended: number }): DashboardCounters {
  const promoters = percent(t.promoters, t.rated);
  const detractors = percent(t.detractors, t.rated);
  return {
    tickets: t.tickets,
    avgSupportTime: averageMinutes(t.handleMs, t.handleCount),
    avgWaitTime: averageMinutes(t.waitMs, t.waitCount),
    avgFirstResponseTime: averageMinutes(t.firstResponseMs, t.firstResponseCount),
    avgResolutionTime: averageMinutes(t.resolutionMs, t.resolutionCount),
    supportFinished: t.closed,
    supportHappening: open.attended,
    supportPending: open.waiting,
    supportGroups: t.groups,
    leads: t.leads,
    activeTickets: t.outbound,
    passiveTickets: t.inbound,
    reopened: t.reopened,
    transfers: t.transfers,
    unattendedClosed: t.unattendedClosed,
    waitRating: 0,
    withoutRating: t.closed - t.rated,
    withRating: t.rated,
    percRating: percent(t.rated, t.closed),
    avgRating: t.rated ? round2(t.ratingSum / t.rated) : 0,
    npsPromotersPerc: promoters,
    npsPassivePerc: percent(t.passives, t.rated),
    npsDetractorsPerc: detractors,
    npsScore: round2(promoters - detractors),
  };
}

/**
 * `GET /dashboard`: the counters and the operators' table of a period (days on the company's
 * clock). Figures come from the pre-aggregated rows (cached); what is open now and who is online
 * are read live.
 */
export class ShowDashboard {
  constructor(private readonly deps: FigureDeps) {}

  async execute(q: FigureQuery): Promise<DashboardAnswer> {
    const { deps } = this;
    const resolved = await resolve(deps, q);
    const { scope, range } = resolved;
    const [figures, open, users] = await Promise.all([
      rangeFigures(deps, resolved, q.fresh ?? false),
      deps.cycles.openCounts(scope.companyId, range.from, range.to, scope.filter),
      deps.users.listAll(scope.companyId),
    ]);
    const byUser = new Map(figures.perUser.map((u) => [u.userId, u.totals]));
    const shown = scope.filter.userIds ? users.filter((u) => scope.filter.userIds!.includes(u.id)) : users;
    const attendants = shown
      .map((u): Attendant => {
        const t = byUser.get(u.id) ?? emptyTotals();
        return {
          id: u.id,
          name: u.name,
          online: u.online,
          tickets: t.tickets,
          closed: t.closed,
          avgWaitTime: averageMinutes(t.waitMs, t.waitCount),
          avgSupportTime: averageMinutes(t.handleMs, t.handleCount),
          avgFirstResponseTime: averageMinutes(t.firstResponseMs, t.firstResponseCount),
          rating: t.rated ? round2(t.ratingSum / t.rated) : 0,
          countRating: t.rated,
        };
      })
      .sort((a, b) => b.tickets - a.tickets || a.name.localeCompare(b.name) || a.id - b.id);
    return {
      counters: countersOf(figures.totals, open),
      attendants,
      period: { dateFrom: range.fromDay, dateTo: range.toDay, timeZone: range.timeZone },
      refreshedAt: figures.refreshedAt,
    };
  }
}
