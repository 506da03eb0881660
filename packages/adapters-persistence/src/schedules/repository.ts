import type { MikroORM } from '@mikro-orm/core';
import { foldForSearch } from '@servicedesk/core';
import type {
  OccurrencePatch,
  ScheduleDeliveries,
  ScheduleOccurrences,
  SchedulePageFilter,
  ScheduleProgress,
  Schedules,
} from '@servicedesk/core/schedules/ports';
import type { Frequency, WeekendRule } from '@servicedesk/core/schedules/recurrence';
import type {
  DeliveryStatus,
  NewDelivery,
  NewOccurrence,
  NewSchedule,
  OccurrenceStatus,
  Schedule,
  ScheduleDelivery,
  ScheduleKind,
  ScheduleOccurrence,
  ScheduleStatus,
  ScheduleTicketStatus,
} from '@servicedesk/core/schedules/schedule';
import { likeTerm, MikroOrmRepository } from '../shared/context.js';
import { foldSql } from '../shared/search.js';
import { marks } from '../shared/sql.js';

type Row = Record<string, unknown>;
const time = (v: unknown) => new Date(v as Date | string);
const maybeTime = (v: unknown) => (v === null || v === undefined ? null : new Date(v as Date | string));
const maybeNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const maybeText = (v: unknown) => (v === null || v === undefined ? null : String(v));
/** A jsonb value: the driver may hand it over parsed or as text. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
/** The open states, as SQL. */
const OPEN = `status in ('pending', 'sending')`;

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

// --- occurrences -------------------------------------------------------------------------------

const OCCURRENCE_FIELDS = [
  'company_id',
  'schedule_id',
  'sequence',
  'due_at',
  'status',
  'step',
  'recipients',
  'sent',
  'failed',
  'failure_reason',
  'settled_at',
  'created_at',
  'updated_at',
] as const;

function toOccurrence(r: Row): ScheduleOccurrence {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    scheduleId: Number(r.schedule_id),
    sequence: Number(r.sequence),
    dueAt: time(r.due_at),
    status: r.status as OccurrenceStatus,
    step: Number(r.step),
    recipients: Number(r.recipients),
    sent: Number(r.sent),
    failed: Number(r.failed),
    failureReason: maybeText(r.failure_reason),
    settledAt: maybeTime(r.settled_at),
    createdAt: time(r.created_at),
    updatedAt: time(r.updated_at),
  };
}

/** The columns `transition` may set besides the status. */
const OCCURRENCE_PATCH: Record<keyof OccurrencePatch, string> = {
  step: 'step',
  recipients: 'recipients',
  sent: 'sent',
  failed: 'failed',
  failureReason: 'failure_reason',
  settledAt: 'settled_at',
  updatedAt: 'updated_at',
};

/** `schedule_occurrences`: its unique indexes refuse a second open occurrence and a sequence twice; moves are conditional updates. */
export class MikroOrmScheduleOccurrences extends MikroOrmRepository implements ScheduleOccurrences {
  private async select(where: string, params: unknown[], tail = ''): Promise<ScheduleOccurrence[]> {
    const rows = await this.em.execute<Row[]>(`select id, ${OCCURRENCE_FIELDS.join(', ')} from schedule_occurrences where ${where} ${tail}`, params);
    return rows.map(toOccurrence);
  }

  async findById(companyId: number, id: number) {
    return (await this.select('id = ? and company_id = ?', [id, companyId]))[0] ?? null;
  }

  async add(o: NewOccurrence): Promise<ScheduleOccurrence> {
    const [row] = await this.em.execute<Row[]>(
      `insert into schedule_occurrences (${OCCURRENCE_FIELDS.join(', ')}) values (${marks(OCCURRENCE_FIELDS.length)}) returning id`,
      [
        o.companyId,
        o.scheduleId,
        o.sequence,
        o.dueAt,
        o.status,
        o.step,
        o.recipients,
        o.sent,
        o.failed,
        o.failureReason,
        o.settledAt,
        o.createdAt,
        o.updatedAt,
      ],
    );
    return { ...o, id: Number(row!.id) };
  }

  async openOf(companyId: number, scheduleId: number) {
    return (await this.select(`company_id = ? and schedule_id = ? and ${OPEN}`, [companyId, scheduleId]))[0] ?? null;
  }

  latestOf(companyId: number, scheduleId: number, limit: number) {
    return this.select('company_id = ? and schedule_id = ?', [companyId, scheduleId, limit], 'order by sequence desc limit ?');
  }

  async transition(companyId: number, id: number, from: readonly OccurrenceStatus[], to: OccurrenceStatus, patch: OccurrencePatch = {}, step?: number) {
    if (!from.length) return false;
    const sets = ['status = ?'];
    const values: unknown[] = [to];
    for (const [key, column] of Object.entries(OCCURRENCE_PATCH) as Array<[keyof OccurrencePatch, string]>) {
      if (patch[key] === undefined) continue;
      sets.push(`${column} = ?`);
      values.push(patch[key]);
    }
    const stepClause = step === undefined ? '' : ' and step = ?';
    const rows = await this.em.execute<Row[]>(
      `update schedule_occurrences set ${sets.join(', ')} where id = ? and company_id = ? and status in (${marks(from.length)})${stepClause} returning id`,
      [...values, id, companyId, ...from, ...(step === undefined ? [] : [step])],
    );
    return rows.length > 0;
  }

  async reschedule(companyId: number, id: number, dueAt: Date, at: Date) {
    const rows = await this.em.execute<Row[]>(
      `update schedule_occurrences set due_at = ?, updated_at = ? where id = ? and company_id = ? and status = 'pending' returning id`,
      [dueAt, at, id, companyId],
    );
    return rows.length > 0;
  }

  openDueBy(until: Date, limit: number) {
    return this.select(`${OPEN} and due_at <= ?`, [until, limit], 'order by due_at, id limit ?');
  }
}

// --- deliveries --------------------------------------------------------------------------------

const DELIVERY_COLUMNS = 'id, company_id, occurrence_id, contact_id, status, message_id, ticket_id, failure_reason, sent_at';

function toDelivery(r: Row): ScheduleDelivery {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    occurrenceId: Number(r.occurrence_id),
    contactId: Number(r.contact_id),
    status: r.status as DeliveryStatus,
    messageId: maybeText(r.message_id),
    ticketId: maybeNumber(r.ticket_id),
    failureReason: maybeText(r.failure_reason),
    sentAt: maybeTime(r.sent_at),
  };
}

/** `schedule_deliveries`: inserted in one statement per occurrence, each settled by one conditional update. */
export class MikroOrmScheduleDeliveries extends MikroOrmRepository implements ScheduleDeliveries {
  private async select(where: string, params: unknown[], tail = ''): Promise<ScheduleDelivery[]> {
    const rows = await this.em.execute<Row[]>(`select ${DELIVERY_COLUMNS} from schedule_deliveries where ${where} ${tail}`, params);
    return rows.map(toDelivery);
  }

  async addMany(deliveries: readonly NewDelivery[]) {
    if (!deliveries.length) return 0;
    const [row] = await this.em.execute<Array<{ n: string | number }>>(
      `with added as (
         insert into schedule_deliveries (company_id, occurrence_id, contact_id)
         select company_id, occurrence_id, contact_id from jsonb_to_recordset(cast(? as jsonb)) as d(company_id int, occurrence_id int, contact_id int)
         on conflict (occurrence_id, contact_id) do nothing
         returning 1)
       select count(*) as n from added`,
      [JSON.stringify(deliveries.map((d) => ({ company_id: d.companyId, occurrence_id: d.occurrenceId, contact_id: d.contactId })))],
    );
    return Number(row?.n ?? 0);
  }

  async nextPending(companyId: number, occurrenceId: number) {
    return (await this.select(`company_id = ? and occurrence_id = ? and status = 'pending'`, [companyId, occurrenceId], 'order by id limit 1'))[0] ?? null;
  }

  async settle(
    companyId: number,
    id: number,
    patch: Pick<ScheduleDelivery, 'messageId' | 'ticketId' | 'failureReason' | 'sentAt'> & { status: Exclude<DeliveryStatus, 'pending'> },
  ) {
    const rows = await this.em.execute<Row[]>(
      `update schedule_deliveries set status = ?, message_id = ?, ticket_id = ?, failure_reason = ?, sent_at = ?
       where id = ? and company_id = ? and status = 'pending' returning id`,
      [patch.status, patch.messageId, patch.ticketId, patch.failureReason, patch.sentAt, id, companyId],
    );
    return rows.length > 0;
  }

  async failPending(companyId: number, occurrenceId: number, reason: string) {
    const rows = await this.em.execute<Row[]>(
      `update schedule_deliveries set status = 'failed', failure_reason = ? where company_id = ? and occurrence_id = ? and status = 'pending' returning id`,
      [reason, companyId, occurrenceId],
    );
    return rows.length;
  }

  async counts(companyId: number, occurrenceId: number) {
    const rows = await this.em.execute<Array<{ status: DeliveryStatus; n: string | number }>>(
      'select status, count(*) as n from schedule_deliveries where company_id = ? and occurrence_id = ? group by status',
      [companyId, occurrenceId],
    );
    const counts: Record<DeliveryStatus, number> = { pending: 0, sent: 0, failed: 0 };
    for (const r of rows) counts[r.status] = Number(r.n);
    return counts;
  }

  listOf(companyId: number, occurrenceId: number, limit: number) {
    return this.select('company_id = ? and occurrence_id = ?', [companyId, occurrenceId, limit], 'order by id limit ?');
  }
}

/** The schedule ports over one ORM: what the backend's schedules feature provides. */
export const schedulesRepositories = (orm: MikroORM) => ({
  schedules: new MikroOrmSchedules(orm),
  scheduleOccurrences: new MikroOrmScheduleOccurrences(orm),
  scheduleDeliveries: new MikroOrmScheduleDeliveries(orm),
});
