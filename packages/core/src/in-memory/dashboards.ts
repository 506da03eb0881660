import { numberSearch } from '../contacts/phone-numbers.js';
import type { DayFigures } from '../dashboards/day-figures.js';
import { addInto, emptyTotals } from '../dashboards/day-figures.js';
import type { ContactReportFilter, ContactsReport, DashboardFigures, FigureFilter, FiguresState, ReportContact, TicketCycles } from '../dashboards/ports.js';
import { foldForSearch } from '../shared/text.js';
import type { NewTicketCycle, TicketCycle, TicketCycleChange, TicketTracking } from '../tickets/ticket-tracking.js';
import type { InMemoryContacts } from './contacts.js';
import { InMemoryTable } from './table.js';

const QUARTER_HOUR = 15 * 60_000;
const inFilter = (f: FigureFilter, queueId: number | null, userId: number | null) =>
  (!f.queueIds?.length || (queueId !== null && f.queueIds.includes(queueId))) && (!f.userIds?.length || (userId !== null && f.userIds.includes(userId)));

/** Attendance cycles in memory: what the tickets' changes write and the dashboards read. */
export class InMemoryTicketCycles implements TicketTracking, TicketCycles {
  readonly table = new InMemoryTable<TicketCycle>();

  private openOf(companyId: number, ticketId: number): TicketCycle | null {
    return this.table.find((c) => c.companyId === companyId && c.ticketId === ticketId && c.closedAt === null);
  }

  async open(cycle: NewTicketCycle) {
    if (cycle.closedAt === null && this.openOf(cycle.companyId, cycle.ticketId)) return;
    const firstContact = !this.table.find((c) => c.companyId === cycle.companyId && c.contactId === cycle.contactId);
    this.table.insert({ ...cycle, firstContact, transfers: 0, updatedAt: cycle.startedAt });
  }

  async change(companyId: number, ticketId: number, change: TicketCycleChange) {
    const c = this.openOf(companyId, ticketId);
    if (!c) return;
    this.table.replace({
      ...c,
      queueId: change.queueId,
      userId: change.userId,
      updatedAt: change.at,
      acceptedAt: change.accepted ? (c.acceptedAt ?? change.at) : c.acceptedAt,
      transfers: c.transfers + (change.transferred ? 1 : 0),
      closedAt: change.closed ? change.at : c.closedAt,
      rating: change.closed && change.rating !== undefined ? change.rating : c.rating,
    });
  }

  async responded(companyId: number, ticketId: number, at: Date) {
    const c = this.openOf(companyId, ticketId);
    if (c && c.firstResponseAt === null) this.table.replace({ ...c, firstResponseAt: at, updatedAt: at });
  }

  async startedBetween(companyId: number, from: Date, to: Date) {
    return this.table
      .filter((c) => c.companyId === companyId && c.startedAt >= from && c.startedAt < to)
      .sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime() || a.id - b.id);
  }

  async startsChangedSince(companyId: number, since: Date) {
    const starts = this.table
      .filter((c) => c.companyId === companyId && c.updatedAt >= since)
      .map((c) => Math.floor(c.startedAt.getTime() / QUARTER_HOUR) * QUARTER_HOUR);
    return [...new Set(starts)].sort((a, b) => a - b).map((at) => new Date(at));
  }

  async firstStart(companyId: number) {
    const starts = this.table.filter((c) => c.companyId === companyId).map((c) => c.startedAt.getTime());
    return starts.length ? new Date(Math.min(...starts)) : null;
  }

  async openCounts(companyId: number, from: Date, to: Date, filter: FigureFilter) {
    const open = this.table.filter(
      (c) => c.companyId === companyId && c.closedAt === null && c.startedAt >= from && c.startedAt < to && inFilter(filter, c.queueId, c.userId),
    );
    const attended = open.filter((c) => c.userId !== null).length;
    return { waiting: open.length - attended, attended };
  }

  async topContacts(companyId: number, from: Date, to: Date, filter: FigureFilter, limit: number) {
    const per = new Map<number, { contactId: number; tickets: number; lastStartedAt: Date }>();
    for (const c of await this.startedBetween(companyId, from, to)) {
      if (!inFilter(filter, c.queueId, c.userId)) continue;
      const row = per.get(c.contactId) ?? { contactId: c.contactId, tickets: 0, lastStartedAt: c.startedAt };
      row.tickets += 1;
      if (c.startedAt > row.lastStartedAt) row.lastStartedAt = c.startedAt;
      per.set(c.contactId, row);
    }
    return [...per.values()]
      .sort((a, b) => b.tickets - a.tickets || b.lastStartedAt.getTime() - a.lastStartedAt.getTime() || a.contactId - b.contactId)
      .slice(0, limit);
  }

  /** Companies with a cycle changed at or after `since` (the stale-company check). */
  companiesChangedSince(since: (companyId: number) => Date | null): number[] {
    const out = new Set<number>();
    for (const c of this.table.filter(() => true)) {
      const at = since(c.companyId);
      if (at === null || c.updatedAt >= at) out.add(c.companyId);
    }
    return [...out];
  }
}

/** The pre-aggregated figures in memory. */
export class InMemoryDashboardFigures implements DashboardFigures {
  private rows: DayFigures[] = [];
  private readonly states = new Map<number, FiguresState>();

  constructor(private readonly cycles: InMemoryTicketCycles) {}

  async byDayAndUser(companyId: number, fromDay: string, toDay: string, filter: FigureFilter) {
    const out = new Map<string, DayFigures>();
    for (const r of this.rows) {
      if (r.companyId !== companyId || r.day < fromDay || r.day > toDay || !inFilter(filter, r.queueId, r.userId)) continue;
      const key = `${r.day}|${r.userId ?? 0}`;
      const row = out.get(key) ?? out.set(key, { companyId, day: r.day, queueId: null, userId: r.userId, ...emptyTotals() }).get(key)!;
      addInto(row, r);
    }
    return [...out.values()].sort((a, b) => a.day.localeCompare(b.day) || (a.userId ?? 0) - (b.userId ?? 0));
  }

  async replace(companyId: number, fromDay: string, toDay: string, rows: readonly DayFigures[]) {
    this.rows = this.rows.filter((r) => r.companyId !== companyId || r.day < fromDay || r.day > toDay).concat(rows.map((r) => ({ ...r })));
  }

  async clear(companyId: number) {
    this.rows = this.rows.filter((r) => r.companyId !== companyId);
  }
  async lockState(companyId: number) {
    return this.state(companyId);
  }
  async saveState(state: FiguresState) {
    this.states.set(state.companyId, { ...state });
  }
  async state(companyId: number) {
    const s = this.states.get(companyId);
    return s ? { ...s } : null;
  }

  async staleCompanies(limit: number, rebuiltBefore: Date) {
    const changed = this.cycles.companiesChangedSince((companyId) => this.states.get(companyId)?.watermark ?? null);
    const old = [...this.states.values()].filter((s) => s.rebuiltAt < rebuiltBefore).map((s) => s.companyId);
    return [...new Set([...changed, ...old])].sort((a, b) => a - b).slice(0, limit);
  }
}

/** The contacts report over the in-memory contacts (and their tags). */
export class InMemoryContactsReport implements ContactsReport {
  constructor(private readonly contacts: InMemoryContacts) {}

  private matching(f: ContactReportFilter): ReportContact[] {
    const term = f.search ? foldForSearch(f.search) : '';
    const digits = numberSearch(f.search);
    return this.contacts.table
      .filter(
        (c) =>
          c.companyId === f.companyId &&
          !c.isGroup &&
          (!f.createdFrom || c.createdAt >= f.createdFrom) &&
          (!f.createdBefore || c.createdAt < f.createdBefore) &&
          (!f.tagIds?.length || this.contacts.tagIdsOf(c.id).some((id) => f.tagIds!.includes(id))) &&
          (!f.numberPrefixes?.length || f.numberPrefixes.some((p) => c.number.startsWith(p))) &&
          (!term || foldForSearch(c.name).includes(term) || foldForSearch(c.email ?? '').includes(term) || (digits !== '' && c.number.includes(digits))),
      )
      .sort((a, b) => a.id - b.id)
      .map((c) => ({ id: c.id, name: c.name, number: c.number, email: c.email, createdAt: c.createdAt }));
  }

  async page(f: ContactReportFilter, page: { offset: number; limit: number }) {
    const rows = this.matching(f);
    return { rows: rows.slice(page.offset, page.offset + page.limit), count: rows.length };
  }

  async batch(f: ContactReportFilter, afterId: number, limit: number) {
    return this.matching(f)
      .filter((c) => c.id > afterId)
      .slice(0, limit);
  }
}
