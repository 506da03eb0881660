import type { ScheduleDeliveries } from '@servicedesk/core/schedules/ports';
import type { DeliveryStatus, NewDelivery, ScheduleDelivery } from '@servicedesk/core/schedules/schedule';
import { MikroOrmRepository } from '../shared/context.js';
import { maybeNumber, maybeText, maybeTime, type Row } from './schedule-rows.js';

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
