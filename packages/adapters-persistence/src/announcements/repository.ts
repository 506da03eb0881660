import type { MikroORM } from '@mikro-orm/core';
import { foldForSearch, type Page, type PageRequest } from '@servicedesk/core';
import type { Announcement, AnnouncementPriority, NewAnnouncement } from '@servicedesk/core/announcements/announcement';
import type { AnnouncementAudience, AnnouncementQuery, Announcements } from '@servicedesk/core/announcements/ports';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldSql } from '../shared/search.js';
import { marks } from '../shared/sql.js';

type Row = Record<string, unknown>;

const maybeTime = (v: unknown) => (v === null || v === undefined ? null : new Date(v as Date | string));
const maybeText = (v: unknown) => (v === null || v === undefined ? null : String(v));
/** Positive int4 ids only: anything else names no company (and must not reach an int4 parameter). */
const validIds = (ids: readonly number[]) => [...new Set(ids)].filter((id) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647);

/** Every column written, in the order of `values`; `targets` reads the links as `1,5,9`. */
const FIELDS = ['priority', 'title', 'text', 'media_key', 'media_name', 'media_type', 'status', 'all_companies', 'starts_at', 'ends_at', 'updated_at'] as const;
const COLUMNS = `a.id, a.company_id, a.created_at, ${FIELDS.map((f) => `a.${f}`).join(', ')},
  (select string_agg(t.company_id::text, ',' order by t.company_id) from announcement_companies t where t.announcement_id = a.id) as targets`;
/** Priority 1 first, then the newest. */
const ORDER = 'order by a.priority, a.created_at desc, a.id desc';
/** Aimed at the company of the next parameter: every company, or linked to it. */
const AIMED_AT = '(a.all_companies or exists (select 1 from announcement_companies t where t.announcement_id = a.id and t.company_id = ?))';

function values(a: NewAnnouncement): unknown[] {
  return [a.priority, a.title, a.text, a.mediaKey, a.mediaName, a.mediaType, a.status, a.targetCompanyIds === null, a.startsAt, a.endsAt, a.updatedAt];
}

function toAnnouncement(r: Row): Announcement {
  const targets = maybeText(r.targets);
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    priority: Number(r.priority) as AnnouncementPriority,
    title: String(r.title),
    text: String(r.text),
    mediaKey: maybeText(r.media_key),
    mediaName: maybeText(r.media_name),
    mediaType: maybeText(r.media_type),
    status: Boolean(r.status),
    targetCompanyIds: r.all_companies ? null : targets ? targets.split(',').map(Number) : [],
    startsAt: maybeTime(r.starts_at),
    endsAt: maybeTime(r.ends_at),
    createdAt: new Date(r.created_at as Date | string),
    updatedAt: new Date(r.updated_at as Date | string),
  };
}

/** The where-clause of a query, with its parameters. */
function whereOf(q: AnnouncementQuery): { sql: string; params: unknown[] } {
  const parts: string[] = ['true'];
  const params: unknown[] = [];
  if (q.search?.trim()) {
    parts.push(`${foldSql('a.title')} like ?`);
    params.push(likeTerm(foldForSearch(q.search)));
  }
  if (q.status !== undefined) {
    parts.push('a.status = ?');
    params.push(q.status);
  }
  if (q.targetCompanyId !== undefined) {
    parts.push(AIMED_AT);
    params.push(q.targetCompanyId);
  }
  if (q.visibleTo) {
    parts.push('a.status', '(a.starts_at is null or a.starts_at <= ?)', '(a.ends_at is null or a.ends_at > ?)', AIMED_AT);
    params.push(q.visibleTo.at, q.visibleTo.at, q.visibleTo.companyId);
  }
  return { sql: parts.join(' and '), params };
}

/**
 * Announcements and their target links. A write replaces the links in the same unit of work
 * (call it inside a transaction, as the use cases do); links are inserted only for companies that
 * exist, so a target removed meanwhile is left out rather than failing the write.
 */
export class MikroOrmAnnouncements extends MikroOrmRepository implements Announcements {
  async findById(id: number) {
    const [row] = await this.em.execute<Row[]>(`select ${COLUMNS} from announcements a where a.id = ?`, [id]);
    return row ? toAnnouncement(row) : null;
  }

  async add(a: NewAnnouncement): Promise<Announcement> {
    const [row] = await this.em.execute<Row[]>(
      `insert into announcements (company_id, created_at, ${FIELDS.join(', ')}) values (?, ?, ${marks(FIELDS.length)}) returning id`,
      [a.companyId, a.createdAt, ...values(a)],
    );
    const id = Number(row!.id);
    await this.link(id, a.targetCompanyIds);
    return (await this.findById(id))!;
  }

  async update(a: Announcement) {
    const rows = await this.em.execute<Row[]>(`update announcements set ${FIELDS.map((f) => `${f} = ?`).join(', ')} where id = ? returning id`, [
      ...values(a),
      a.id,
    ]);
    if (!rows.length) return;
    await this.em.execute('delete from announcement_companies where announcement_id = ?', [a.id]);
    await this.link(a.id, a.targetCompanyIds);
  }

  async remove(id: number) {
    return (await this.em.execute<Row[]>('delete from announcements where id = ? returning id', [id])).length > 0;
  }

  async page(q: AnnouncementQuery & { readonly page: PageRequest }): Promise<Page<Announcement>> {
    const { sql, params } = whereOf(q);
    const [counted] = await this.em.execute<Array<{ n: string | number }>>(`select count(*) as n from announcements a where ${sql}`, params);
    const rows = await this.em.execute<Row[]>(`select ${COLUMNS} from announcements a where ${sql} ${ORDER} limit ? offset ?`, [
      ...params,
      q.page.limit,
      q.page.offset,
    ]);
    return { rows: rows.map(toAnnouncement), count: Number(counted?.n ?? 0) };
  }

  async all(q: AnnouncementQuery) {
    const { sql, params } = whereOf(q);
    return (await this.em.execute<Row[]>(`select ${COLUMNS} from announcements a where ${sql} ${ORDER}`, params)).map(toAnnouncement);
  }

  private async link(id: number, companyIds: readonly number[] | null) {
    const ids = validIds(companyIds ?? []);
    if (!ids.length) return;
    await this.em.execute(
      `insert into announcement_companies (announcement_id, company_id) select ?, c.id from companies c where c.id in (${marks(ids.length)}) on conflict do nothing`,
      [id, ...ids],
    );
  }
}

/** Reads the companies' and users' tables for the announcements' frames. */
export class MikroOrmAnnouncementAudience extends MikroOrmRepository implements AnnouncementAudience {
  async activeCompanyIds(afterId: number, limit: number) {
    const rows = await this.em.execute<Row[]>('select id from companies where status and id > ? order by id limit ?', [afterId, limit]);
    return rows.map((r) => Number(r.id));
  }

  async existingCompanyIds(ids: readonly number[]) {
    const wanted = validIds(ids);
    if (!wanted.length) return [];
    const rows = await this.em.execute<Row[]>(`select id from companies where id in (${marks(wanted.length)}) order by id`, wanted);
    return rows.map((r) => Number(r.id));
  }

  async superUserCompanyIds() {
    const rows = await this.em.execute<Row[]>(`select distinct company_id from users where profile = 'super' order by company_id`);
    return rows.map((r) => Number(r.company_id));
  }
}

export const announcementsRepositories = (orm: MikroORM) => ({
  announcements: new MikroOrmAnnouncements(orm),
  announcementAudience: new MikroOrmAnnouncementAudience(orm),
});
