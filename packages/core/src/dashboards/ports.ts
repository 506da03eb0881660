import type { Page, PageRequest } from '../shared/paging.js';
import type { TicketCycle } from '../tickets/ticket-tracking.js';
import type { DayFigures } from './day-figures.js';

/** Queues and operators a figure is limited to; none or empty: all of them. */
export interface FigureFilter {
  readonly queueIds?: readonly number[];
  readonly userIds?: readonly number[];
}

/** The attendance cycles as the dashboards read them (written through `TicketTracking`). */
export interface TicketCycles {
  /** The company's cycles started in [from, to), oldest first. */
  startedBetween(companyId: number, from: Date, to: Date): Promise<TicketCycle[]>;
  /** When the cycles changed at or after `since` started (to the quarter hour, distinct): the days whose figures moved. */
  startsChangedSince(companyId: number, since: Date): Promise<Date[]>;
  /** When the company's first cycle started; null without any. */
  firstStart(companyId: number): Promise<Date | null>;
  /** The cycles started in [from, to) still open now: waiting for an operator, and with one. */
  openCounts(companyId: number, from: Date, to: Date, filter: FigureFilter): Promise<{ waiting: number; attended: number }>;
  /** The contacts with the most cycles started in [from, to), most first (then the latest start). */
  topContacts(
    companyId: number,
    from: Date,
    to: Date,
    filter: FigureFilter,
    limit: number,
  ): Promise<Array<{ contactId: number; tickets: number; lastStartedAt: Date }>>;
}

/** How far the stored figures of a company go. */
export interface FiguresState {
  readonly companyId: number;
  /** The zone the days were cut in; another zone now means a rebuild. */
  readonly timeZone: string;
  /** Cycles changed at or after this moment are not in the figures yet. */
  readonly watermark: Date;
  readonly refreshedAt: Date;
  /** The last rebuild from scratch (a ticket deleted since leaves the figures at the next one). */
  readonly rebuiltAt: Date;
}

/** The pre-aggregated figures: one row per company, day (in the company's zone), queue and operator. */
export interface DashboardFigures {
  /** Rows of the days in [fromDay, toDay] (`YYYY-MM-DD`), summed over queues: one row per day and operator (`queueId` null). */
  byDayAndUser(companyId: number, fromDay: string, toDay: string, filter: FigureFilter): Promise<DayFigures[]>;
  /** Replaces the rows of the days in [fromDay, toDay] with `rows` (all of them inside those days). */
  replace(companyId: number, fromDay: string, toDay: string, rows: readonly DayFigures[]): Promise<void>;
  /** Drops every row of the company (a rebuild starts from nothing). */
  clear(companyId: number): Promise<void>;
  /**
   * The company's state, locked until the transaction ends (two refreshes of one company never
   * interleave); null before its first refresh (the lock then holds on a placeholder).
   */
  lockState(companyId: number): Promise<FiguresState | null>;
  saveState(state: FiguresState): Promise<void>;
  state(companyId: number): Promise<FiguresState | null>;
  /**
   * Companies whose figures are behind, at most `limit`: cycles changed at or after their
   * watermark, cycles and no state yet, or a last rebuild before `rebuiltBefore`.
   */
  staleCompanies(limit: number, rebuiltBefore: Date): Promise<number[]>;
}

/** A contact as the contacts report lists it. */
export interface ReportContact {
  readonly id: number;
  readonly name: string;
  readonly number: string;
  readonly email: string | null;
  readonly createdAt: Date;
}

/** Every condition applies together; groups are never in the report. */
export interface ContactReportFilter {
  readonly companyId: number;
  readonly createdFrom?: Date;
  readonly createdBefore?: Date;
  /** Carrying at least one of these tags. */
  readonly tagIds?: readonly number[];
  /** The number starting with one of these digit strings (`5511`: São Paulo). */
  readonly numberPrefixes?: readonly string[];
  /** In the name or e-mail (case- and accent-insensitive), or the digits in the number. */
  readonly search?: string;
}

/** The contacts report: a page to show, or every row in batches to export without holding them all. */
export interface ContactsReport {
  /** By id (creation order). */
  page(filter: ContactReportFilter, page: PageRequest): Promise<Page<ReportContact>>;
  /** Up to `limit` rows with an id above `afterId`, by id. May be read outside the request's unit of work (a streamed export). */
  batch(filter: ContactReportFilter, afterId: number, limit: number): Promise<ReportContact[]>;
}
