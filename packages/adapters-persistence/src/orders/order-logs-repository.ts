import type { NewOrderLog, OrderLog, OrderLogType } from '@servicedesk/core/orders/order';
import type { OrderLogs } from '@servicedesk/core/orders/ports';
import { MikroOrmRepository } from '../shared/context.js';
import { isId, json, maybeNumber, maybeText, time, type Row } from './order-rows.js';

// --- logs --------------------------------------------------------------------------------------

function toLog(r: Row): OrderLog {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    orderId: Number(r.order_id),
    userId: maybeNumber(r.user_id),
    type: r.type as OrderLogType,
    from: maybeText(r.from_value),
    to: maybeText(r.to_value),
    data: json<Record<string, unknown>>(r.data),
    createdAt: time(r.created_at),
  };
}

export class MikroOrmOrderLogs extends MikroOrmRepository implements OrderLogs {
  async add(log: NewOrderLog): Promise<OrderLog> {
    const [row] = await this.em.execute<Row[]>(
      'insert into order_logs (company_id, order_id, user_id, type, from_value, to_value, data, created_at) values (?, ?, ?, ?, ?, ?, ?, ?) returning id',
      [log.companyId, log.orderId, log.userId, log.type, log.from, log.to, JSON.stringify(log.data), log.createdAt],
    );
    return { ...log, id: Number(row!.id) };
  }

  async list(companyId: number, orderId: number) {
    if (!isId(orderId)) return [];
    const rows = await this.em.execute<Row[]>('select * from order_logs where company_id = ? and order_id = ? order by created_at, id', [companyId, orderId]);
    return rows.map(toLog);
  }
}
