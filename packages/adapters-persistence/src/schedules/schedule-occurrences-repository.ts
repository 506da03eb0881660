import type { OccurrencePatch, ScheduleOccurrences } from '@servicedesk/core/schedules/ports';
import type { NewOccurrence, OccurrenceStatus, ScheduleOccurrence } from '@servicedesk/core/schedules/schedule';
import { MikroOrmRepository } from '../shared/context.js';
import { marks } from '../shared/sql.js';
import { maybeText, maybeTime, time, type Row } from './schedule-rows.js';

/** The open states, as SQL. */
const OPEN = `status in ('pending', 'sending')`;

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
