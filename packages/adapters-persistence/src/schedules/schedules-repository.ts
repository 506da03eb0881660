import { foldForSearch } from '@servicedesk/core';
import type { SchedulePageFilter, ScheduleProgress, Schedules } from '@servicedesk/core/schedules/ports';
import type { Frequency, WeekendRule } from '@servicedesk/core/schedules/recurrence';
import type { NewSchedule, Schedule, ScheduleKind, ScheduleStatus, ScheduleTicketStatus } from '@servicedesk/core/schedules/schedule';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldSql } from '../shared/search.js';
import { marks } from '../shared/sql.js';
import { maybeNumber, maybeText, maybeTime, time, type Row } from './schedule-rows.js';

/** A jsonb value: the driver may hand it over parsed or as text. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

// --- schedules ---------------------------------------------------------------------------------

/** What its owner edits (`update`), in the order of `definitionValues`. */
const DEFINITION_FIELDS = [
  'name',
  'body',
  'contact_id',
  'contact_ids',
  'tag_ids',
  'connection_id',
  'user_id',
  'ticket_user_id',
  'queue_id',
  'open_ticket',
  'status_ticket',
  'sign',
  'sign_user_id',
  'media_path',
  'media_name',
  'media_content_type',
  'media_size',
  'frequency',
  'every',
  'repeat_count',
  'repeat_until',
  'weekend',
  'anchor_at',
  'anchor_sequence',
  'series_start',
  'updated_at',
] as const;

/** What the runs write (`recordProgress`), in the order of `progressValues`. */
const PROGRESS_FIELDS = ['status', 'send_at', 'sent_at', 'sent_count', 'last_error', 'ticket_id', 'updated_at'] as const;

function definitionValues(s: NewSchedule): unknown[] {
  const r = s.recurrence;
  return [
    s.name,
    s.body,
    s.contactId,
    JSON.stringify(s.contactIds),
    JSON.stringify(s.tagIds),
    s.connectionId,
    s.userId,
    s.ticketUserId,
    s.queueId,
    s.openTicket,
    s.statusTicket,
    s.sign,
    s.signUserId,
    s.media?.path ?? null,
    s.media?.name ?? null,
    s.media?.contentType ?? null,
    s.media?.size ?? null,
    r.frequency,
    r.every,
    r.count,
    r.until,
    r.weekend,
    s.anchorAt,
    s.anchorSequence,
    s.seriesStart,
    s.updatedAt,
  ];
}

const progressValues = (p: ScheduleProgress) => [p.status, p.sendAt, p.sentAt, p.sentCount, p.lastError, p.ticketId, p.updatedAt];

const SCHEDULE_COLUMNS = `id, company_id, kind, created_at, ${DEFINITION_FIELDS.join(', ')}, ${PROGRESS_FIELDS.filter((f) => f !== 'updated_at').join(', ')}`;

function toSchedule(r: Row): Schedule {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    kind: r.kind as ScheduleKind,
    name: maybeText(r.name),
    body: String(r.body),
    contactId: maybeNumber(r.contact_id),
    contactIds: json<number[]>(r.contact_ids),
    tagIds: json<number[]>(r.tag_ids),
    connectionId: maybeNumber(r.connection_id),
    userId: maybeNumber(r.user_id),
    ticketUserId: maybeNumber(r.ticket_user_id),
    queueId: maybeNumber(r.queue_id),
    openTicket: Boolean(r.open_ticket),
    statusTicket: r.status_ticket as ScheduleTicketStatus,
    sign: Boolean(r.sign),
    signUserId: maybeNumber(r.sign_user_id),
    media:
      r.media_path === null || r.media_path === undefined
        ? null
        : { path: String(r.media_path), name: String(r.media_name ?? ''), contentType: String(r.media_content_type ?? ''), size: Number(r.media_size ?? 0) },
    recurrence: {
      frequency: r.frequency as Frequency,
      every: Number(r.every),
      count: Number(r.repeat_count),
      until: maybeTime(r.repeat_until),
      weekend: r.weekend as WeekendRule,
    },
    anchorAt: time(r.anchor_at),
    anchorSequence: Number(r.anchor_sequence),
    seriesStart: Number(r.series_start),
    sendAt: time(r.send_at),
    status: r.status as ScheduleStatus,
    sentAt: maybeTime(r.sent_at),
    sentCount: Number(r.sent_count),
    lastError: maybeText(r.last_error),
    ticketId: maybeNumber(r.ticket_id),
    createdAt: time(r.created_at),
    updatedAt: time(r.updated_at),
  };
}

/** `schedules`, scoped by company: the definition and the progress are written apart, so neither overwrites the other. */
export class MikroOrmSchedules extends MikroOrmRepository implements Schedules {
  private async select(where: string, params: unknown[], tail = ''): Promise<Schedule[]> {
    const rows = await this.em.execute<Row[]>(
      `select ${SCHEDULE_COLUMNS.split(', ')
        .map((c) => `s.${c}`)
        .join(', ')} from schedules s ${where} ${tail}`,
      params,
    );
    return rows.map(toSchedule);
  }

  async findById(companyId: number, id: number) {
    return (await this.select('where s.id = ? and s.company_id = ?', [id, companyId]))[0] ?? null;
  }

  async add(schedule: NewSchedule): Promise<Schedule> {
    const [row] = await this.em.execute<Row[]>(
      `insert into schedules (company_id, kind, created_at, ${DEFINITION_FIELDS.join(', ')}, ${PROGRESS_FIELDS.filter((f) => f !== 'updated_at').join(', ')})
       values (?, ?, ?, ${marks(DEFINITION_FIELDS.length + PROGRESS_FIELDS.length - 1)}) returning id`,
      [schedule.companyId, schedule.kind, schedule.createdAt, ...definitionValues(schedule), ...progressValues(schedule).slice(0, -1)],
    );
    return { ...schedule, id: Number(row!.id) };
  }

  async update(schedule: Schedule) {
    await this.em.execute(`update schedules set ${DEFINITION_FIELDS.map((f) => `${f} = ?`).join(', ')} where id = ? and company_id = ?`, [
      ...definitionValues(schedule),
      schedule.id,
      schedule.companyId,
    ]);
  }

  async recordProgress(companyId: number, id: number, progress: ScheduleProgress) {
    await this.em.execute(`update schedules set ${PROGRESS_FIELDS.map((f) => `${f} = ?`).join(', ')} where id = ? and company_id = ?`, [
      ...progressValues(progress),
      id,
      companyId,
    ]);
  }

  async remove(companyId: number, id: number) {
    const rows = await this.em.execute<Row[]>('delete from schedules where id = ? and company_id = ? returning id', [id, companyId]);
    return rows.length > 0;
  }

  async page(filter: SchedulePageFilter & { readonly companyId: number }) {
    const where = ['s.company_id = ?', 's.kind = ?'];
    const params: unknown[] = [filter.companyId, filter.kind];
    if (filter.search?.trim()) {
      const term = likeTerm(foldForSearch(filter.search.trim()));
      where.push(`(${foldSql('s.body')} like ? or ${foldSql('s.name')} like ? or ${foldSql('c.name')} like ?)`);
      params.push(term, term, term);
    }
    for (const [value, column] of [
      [filter.contactId, 's.contact_id'],
      [filter.userId, 's.user_id'],
      [filter.status, 's.status'],
    ] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value);
    }
    const from = `left join contacts c on c.id = s.contact_id where ${where.join(' and ')}`;
    const [counted] = await this.em.execute<Array<{ n: string | number }>>(`select count(*) as n from schedules s ${from}`, params);
    const rows = await this.select(from, [...params, filter.limit, filter.offset], 'order by s.created_at desc, s.id desc limit ? offset ?');
    return { rows, count: Number(counted?.n ?? 0) };
  }
}
