import type { MikroORM } from '@mikro-orm/core';
import type { SqlEntityManager } from '@mikro-orm/postgresql';
import {
  FIGURE_KEYS,
  foldForSearch,
  numberSearch,
  type ContactReportFilter,
  type ContactsReport,
  type DashboardFigures,
  type DayFigures,
  type FigureFilter,
  type FiguresState,
  type Page,
  type PageRequest,
  type ReportContact,
} from '@servicedesk/core';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldSql } from '../shared/search.js';
import { marks } from '../shared/sql.js';
import { FIGURE_COLUMNS } from './m0020-ticket-tracking.js';
import { filterSql, MikroOrmTicketCycles } from './ticket-cycles.js';

type Row = Record<string, unknown>;
/** Rows per insert statement when figures are replaced. */
const INSERT_CHUNK = 500;

const figuresOfRow = (companyId: number, r: Row): DayFigures => ({
  companyId,
  day: String(r.day),
  queueId: Number(r.queue_id) || null,
  userId: Number(r.user_id) || null,
  ...(Object.fromEntries(FIGURE_KEYS.map((k, i) => [k, Number(r[FIGURE_COLUMNS[i]!] ?? 0)])) as Record<(typeof FIGURE_KEYS)[number], number>),
});

const stateOf = (r: Row | undefined): FiguresState | null =>
  !r || r.time_zone === ''
    ? null
    : {
        companyId: Number(r.company_id),
        timeZone: String(r.time_zone),
        watermark: new Date(r.watermark as string),
        refreshedAt: new Date(r.refreshed_at as string),
        rebuiltAt: new Date(r.rebuilt_at as string),
      };

/** `ticket_day_figures` and `dashboard_refreshes`. */
export class MikroOrmDashboardFigures extends MikroOrmRepository implements DashboardFigures {
  async byDayAndUser(companyId: number, fromDay: string, toDay: string, filter: FigureFilter): Promise<DayFigures[]> {
    const f = filterSql(filter);
    const rows = await this.em.execute<Row[]>(
      `select to_char(day, 'YYYY-MM-DD') as day, user_id, ${FIGURE_COLUMNS.map((c) => `sum(${c}) as ${c}`).join(', ')}
       from ticket_day_figures where company_id = ? and day >= cast(? as date) and day <= cast(? as date)${f.sql}
       group by day, user_id order by day, user_id`,
      [companyId, fromDay, toDay, ...f.params],
    );
    return rows.map((r) => figuresOfRow(companyId, { ...r, queue_id: 0 }));
  }

  async replace(companyId: number, fromDay: string, toDay: string, rows: readonly DayFigures[]): Promise<void> {
    await this.em.execute('delete from ticket_day_figures where company_id = ? and day >= cast(? as date) and day <= cast(? as date)', [
      companyId,
      fromDay,
      toDay,
    ]);
    const columns = ['company_id', 'day', 'queue_id', 'user_id', ...FIGURE_COLUMNS];
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      const one = `(?, cast(? as date), ?, ?, ${marks(FIGURE_COLUMNS.length)})`;
      await this.em.execute(
        `insert into ticket_day_figures (${columns.join(', ')}) values ${chunk.map(() => one).join(', ')}`,
        chunk.flatMap((r) => [companyId, r.day, r.queueId ?? 0, r.userId ?? 0, ...FIGURE_KEYS.map((k) => r[k])]),
      );
    }
  }

  async clear(companyId: number): Promise<void> {
    await this.em.execute('delete from ticket_day_figures where company_id = ?', [companyId]);
  }

  async lockState(companyId: number): Promise<FiguresState | null> {
    // A placeholder row (no zone) gives the first refresh something to lock; it commits or rolls back with the refresh.
    await this.em.execute(
      `insert into dashboard_refreshes (company_id, time_zone, watermark, refreshed_at, rebuilt_at)
       values (?, '', to_timestamp(0), to_timestamp(0), to_timestamp(0)) on conflict (company_id) do nothing`,
      [companyId],
    );
    const [row] = await this.em.execute<Row[]>('select * from dashboard_refreshes where company_id = ? for update', [companyId]);
    return stateOf(row);
  }

  async saveState(s: FiguresState): Promise<void> {
    await this.em.execute(
      `insert into dashboard_refreshes (company_id, time_zone, watermark, refreshed_at, rebuilt_at) values (?, ?, ?, ?, ?)
       on conflict (company_id) do update set time_zone = excluded.time_zone, watermark = excluded.watermark,
         refreshed_at = excluded.refreshed_at, rebuilt_at = excluded.rebuilt_at`,
      [s.companyId, s.timeZone, s.watermark, s.refreshedAt, s.rebuiltAt],
    );
  }

  async state(companyId: number): Promise<FiguresState | null> {
    const [row] = await this.em.execute<Row[]>('select * from dashboard_refreshes where company_id = ?', [companyId]);
    return stateOf(row);
  }

  async staleCompanies(limit: number, rebuiltBefore: Date): Promise<number[]> {
    const rows = await this.em.execute<Array<{ id: unknown }>>(
      `select c.id from companies c left join dashboard_refreshes r on r.company_id = c.id
       where (r.time_zone <> '' and r.rebuilt_at < ?)
          or exists (select 1 from ticket_cycles tc where tc.company_id = c.id and tc.updated_at >= coalesce(r.watermark, '-infinity'::timestamptz))
       order by c.id limit ?`,
      [rebuiltBefore, limit],
    );
    return rows.map((r) => Number(r.id));
  }
}

const toContact = (r: Row): ReportContact => ({
  id: Number(r.id),
  name: String(r.name),
  number: String(r.number),
  email: (r.email as string | null) ?? null,
  createdAt: new Date(r.created_at as string),
});

/** The report's conditions on `contacts` (never groups). */
function reportWhere(f: ContactReportFilter): { sql: string; params: unknown[] } {
  let sql = 'c.company_id = ? and c.is_group = false';
  const params: unknown[] = [f.companyId];
  if (f.createdFrom) {
    sql += ' and c.created_at >= ?';
    params.push(f.createdFrom);
  }
  if (f.createdBefore) {
    sql += ' and c.created_at < ?';
    params.push(f.createdBefore);
  }
  if (f.tagIds?.length) {
    sql += ` and exists (select 1 from contact_tags ct where ct.contact_id = c.id and ct.tag_id in (${marks(f.tagIds.length)}))`;
    params.push(...f.tagIds);
  }
  if (f.numberPrefixes?.length) {
    sql += ` and (${f.numberPrefixes.map(() => 'c.number like ?').join(' or ')})`;
    params.push(...f.numberPrefixes.map((p) => `${p.replace(/[\\%_]/g, '')}%`));
  }
  if (f.search?.trim()) {
    const term = likeTerm(foldForSearch(f.search));
    const digits = numberSearch(f.search);
    sql += ` and (${foldSql('c.name')} like ? or ${foldSql('c.email')} like ?${digits ? ' or c.number like ?' : ''})`;
    params.push(term, term, ...(digits ? [likeTerm(digits)] : []));
  }
  return { sql, params };
}

/** The contacts report on `contacts`, by id. */
export class MikroOrmContactsReport extends MikroOrmRepository implements ContactsReport {
  async page(f: ContactReportFilter, page: PageRequest): Promise<Page<ReportContact>> {
    const w = reportWhere(f);
    const rows = await this.em.execute<Row[]>(
      `select c.id, c.name, c.number, c.email, c.created_at from contacts c where ${w.sql} order by c.id limit ? offset ?`,
      [...w.params, page.limit, page.offset],
    );
    const [count] = await this.em.execute<Array<{ n: unknown }>>(`select count(*) as n from contacts c where ${w.sql}`, w.params);
    return { rows: rows.map(toContact), count: Number(count?.n ?? 0) };
  }

  async batch(f: ContactReportFilter, afterId: number, limit: number): Promise<ReportContact[]> {
    const w = reportWhere(f);
    // A streamed export reads after the request's unit of work ended: a context of its own then.
    const current = this.orm.em.getContext(false);
    const em = (current === this.orm.em ? this.orm.em.fork() : current) as unknown as SqlEntityManager;
    const rows = await em.execute<Row[]>(
      `select c.id, c.name, c.number, c.email, c.created_at from contacts c where ${w.sql} and c.id > ? order by c.id limit ?`,
      [...w.params, afterId, limit],
    );
    return rows.map(toContact);
  }
}

/** The dashboards' ports on one database (their tables come with m0020). */
export const dashboardsRepositories = (orm: MikroORM) => {
  const cycles = new MikroOrmTicketCycles(orm);
  return { ticketCycles: cycles, dashboardFigures: new MikroOrmDashboardFigures(orm), contactsReport: new MikroOrmContactsReport(orm) };
};

export { MikroOrmTicketCycles };
