import type { Contacts } from '../contacts/ports.js';
import { averageMinutes, emptyTotals, percent, sumOf, type Totals } from './day-figures.js';
import { brazilianDay, eachDay, localHour, weekOf } from './days.js';
import { rangeFigures, resolve, type FigureDeps, type FigureQuery } from './show-dashboard.js';

/**
 * `GET /dashboard/ticketsUsers`: the tickets (cycles started in the range) each operator holds,
 * every operator of the scope listed, most first.
 */
export class TicketsByUser {
  constructor(private readonly deps: FigureDeps) {}

  async execute(q: FigureQuery): Promise<{ data: Array<{ userId: number; nome: string; quantidade: number }> }> {
    const resolved = await resolve(this.deps, q);
    const figures = await rangeFigures(this.deps, resolved, q.fresh ?? false);
    const count = new Map(figures.perUser.map((u) => [u.userId, u.totals.tickets]));
    const wanted = resolved.scope.filter.userIds;
    const users = (await this.deps.users.listAll(resolved.scope.companyId)).filter((u) => !wanted || wanted.includes(u.id));
    const data = users
      .map((u) => ({ userId: u.id, nome: u.name, quantidade: count.get(u.id) ?? 0 }))
      .sort((a, b) => b.quantidade - a.quantidade || a.nome.localeCompare(b.nome) || a.userId - b.userId);
    return { data };
  }
}

export type TicketsPerDay =
  | { count: number; data: Array<{ horario: string; total: number }> }
  | { count: number; data: Array<{ data: string; day: string; total: number }> };

/**
 * `GET /dashboard/ticketsDay`: tickets started per day of the range, every day in calendar order
 * (`data` as `dd/mm/YYYY`, `day` as `YYYY-MM-DD`); a range of one day is cut by the hour instead
 * (`horario` `00` to `23` on the company's clock, read from the cycles of that day).
 */
export class TicketsByDay {
  constructor(private readonly deps: FigureDeps) {}

  async execute(q: FigureQuery): Promise<TicketsPerDay> {
    const resolved = await resolve(this.deps, q);
    const { scope, range } = resolved;
    if (range.fromDay === range.toDay) {
      const { queueIds, userIds } = scope.filter;
      const cycles = (await this.deps.cycles.startedBetween(scope.companyId, range.from, range.to)).filter(
        (c) => (!queueIds || (c.queueId !== null && queueIds.includes(c.queueId))) && (!userIds || (c.userId !== null && userIds.includes(c.userId))),
      );
      const hours = new Array<number>(24).fill(0);
      for (const c of cycles) hours[localHour(c.startedAt, range.timeZone)]! += 1;
      return { count: cycles.length, data: hours.map((total, hour) => ({ horario: String(hour).padStart(2, '0'), total })) };
    }
    const figures = await rangeFigures(this.deps, resolved, q.fresh ?? false);
    const perDay = new Map(figures.perDay.map((d) => [d.day, d.totals.tickets]));
    const data = eachDay(range.fromDay, range.toDay).map((day) => ({ data: brazilianDay(day), day, total: perDay.get(day) ?? 0 }));
    return { count: figures.totals.tickets, data };
  }
}

export type Granularity = 'day' | 'week' | 'month';

export interface Metrics {
  tickets: number;
  inbound: number;
  outbound: number;
  closed: number;
  reopened: number;
  transfers: number;
  unattendedClosed: number;
  leads: number;
  groups: number;
  /** Closed among the cycles started, in percent. */
  resolutionRate: number;
  avgWaitTime: number;
  avgFirstResponseTime: number;
  avgSupportTime: number;
  avgResolutionTime: number;
  ratings: { count: number; average: number; promoters: number; passives: number; detractors: number; nps: number };
}

function metricsOf(t: Totals): Metrics {
  return {
    tickets: t.tickets,
    inbound: t.inbound,
    outbound: t.outbound,
    closed: t.closed,
    reopened: t.reopened,
    transfers: t.transfers,
    unattendedClosed: t.unattendedClosed,
    leads: t.leads,
    groups: t.groups,
    resolutionRate: percent(t.closed, t.tickets),
    avgWaitTime: averageMinutes(t.waitMs, t.waitCount),
    avgFirstResponseTime: averageMinutes(t.firstResponseMs, t.firstResponseCount),
    avgSupportTime: averageMinutes(t.handleMs, t.handleCount),
    avgResolutionTime: averageMinutes(t.resolutionMs, t.resolutionCount),
    ratings: {
      count: t.rated,
      average: t.rated ? Math.round((t.ratingSum / t.rated) * 100) / 100 : 0,
      promoters: t.promoters,
      passives: t.passives,
      detractors: t.detractors,
      nps: Math.round((percent(t.promoters, t.rated) - percent(t.detractors, t.rated)) * 100) / 100,
    },
  };
}

const bucketOf = (day: string, g: Granularity) => (g === 'day' ? day : g === 'week' ? weekOf(day) : `${day.slice(0, 7)}-01`);

/**
 * `GET /dashboard/extended-metrics`: first response, waiting, handling and resolution times,
 * resolution rate, reopenings, transfers, closes without an operator and ratings, in all and as a
 * series by day, ISO week (its Monday) or month (its first day), every bucket of the range present.
 */
export class ExtendedMetrics {
  constructor(private readonly deps: FigureDeps) {}

  async execute(q: FigureQuery & { readonly granularity?: Granularity }) {
    const granularity = q.granularity ?? 'day';
    const resolved = await resolve(this.deps, q);
    const { range } = resolved;
    const figures = await rangeFigures(this.deps, resolved, q.fresh ?? false);
    const buckets = new Map<string, Totals[]>();
    for (const day of eachDay(range.fromDay, range.toDay)) buckets.set(bucketOf(day, granularity), []);
    for (const d of figures.perDay) buckets.get(bucketOf(d.day, granularity))?.push(d.totals);
    return {
      period: { dateFrom: range.fromDay, dateTo: range.toDay, timeZone: range.timeZone },
      granularity,
      totals: metricsOf(figures.totals),
      series: [...buckets].map(([period, rows]) => ({ period, ...metricsOf(rows.length ? sumOf(rows) : emptyTotals()) })),
      refreshedAt: figures.refreshedAt,
    };
  }
}

/** `GET /dashboard/top-contacts`: the contacts with the most tickets started in the range. */
export class TopContacts {
  constructor(private readonly deps: FigureDeps & { contacts: Contacts }) {}

  async execute(q: FigureQuery & { readonly limit?: number }) {
    const { scope, range } = await resolve(this.deps, q);
    const limit = Math.min(Math.max(q.limit ?? 10, 1), 100);
    const params = { from: range.fromDay, to: range.toDay, zone: range.timeZone, limit, ...scope.filter };
    return this.deps.answers.remember(scope.companyId, 'top-contacts', params, q.fresh ?? false, async () => {
      const top = await this.deps.cycles.topContacts(scope.companyId, range.from, range.to, scope.filter, limit);
      const contacts = new Map(
        (
          await this.deps.contacts.findByIds(
            scope.companyId,
            top.map((t) => t.contactId),
          )
        ).map((c) => [c.id, c]),
      );
      return top.flatMap((t) => {
        const c = contacts.get(t.contactId);
        return c ? [{ contactId: c.id, name: c.name, number: c.number, tickets: t.tickets, lastInteractionAt: t.lastStartedAt.toISOString() }] : [];
      });
    });
  }
}
