import { UniqueConstraintViolationException } from '@mikro-orm/core';
import { ConflictError } from '@servicedesk/core';
import type { NewOrderSetting, OrderSetting, StatusMessages } from '@servicedesk/core/orders/order-setting';
import type { OrderSettings } from '@servicedesk/core/orders/ports';
import { MikroOrmRepository } from '../shared/context.js';
import { isId, json, maybeNumber, time, type Row } from './order-rows.js';

// --- settings ----------------------------------------------------------------------------------

function toSetting(r: Row): OrderSetting {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    connectionId: maybeNumber(r.connection_id),
    currency: String(r.currency),
    paymentInstructions: String(r.payment_instructions),
    statusMessages: json<StatusMessages>(r.status_messages),
    createdAt: time(r.created_at),
    updatedAt: time(r.updated_at),
  };
}

/** Either unique index (a connection's row, a company's default row) taken: the use cases' 409. */
async function unique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof UniqueConstraintViolationException) throw new ConflictError('ERR_ORDER_SETTING_EXISTS');
    throw err;
  }
}

export class MikroOrmOrderSettings extends MikroOrmRepository implements OrderSettings {
  private async select(where: string, params: unknown[]): Promise<OrderSetting[]> {
    const rows = await this.em.execute<Row[]>(`select * from order_settings where ${where} order by connection_id nulls first, id`, params);
    return rows.map(toSetting);
  }

  async findById(companyId: number, id: number) {
    if (!isId(id)) return null;
    return (await this.select('id = ? and company_id = ?', [id, companyId]))[0] ?? null;
  }

  list(companyId: number) {
    return this.select('company_id = ?', [companyId]);
  }

  async findFor(companyId: number, connectionId: number | null) {
    if (connectionId === null) return (await this.select('company_id = ? and connection_id is null', [companyId]))[0] ?? null;
    if (!isId(connectionId)) return null;
    return (await this.select('company_id = ? and connection_id = ?', [companyId, connectionId]))[0] ?? null;
  }

  async add(s: NewOrderSetting): Promise<OrderSetting> {
    const [row] = await unique(() =>
      this.em.execute<Row[]>(
        `insert into order_settings (company_id, connection_id, currency, payment_instructions, status_messages, created_at, updated_at)
       values (?, ?, ?, ?, ?, ?, ?) returning id`,
        [s.companyId, s.connectionId, s.currency, s.paymentInstructions, JSON.stringify(s.statusMessages), s.createdAt, s.updatedAt],
      ),
    );
    return { ...s, id: Number(row!.id) };
  }

  async update(s: OrderSetting) {
    await unique(() =>
      this.em.execute(
        'update order_settings set connection_id = ?, currency = ?, payment_instructions = ?, status_messages = ?, updated_at = ? where id = ? and company_id = ?',
        [s.connectionId, s.currency, s.paymentInstructions, JSON.stringify(s.statusMessages), s.updatedAt, s.id, s.companyId],
      ),
    );
  }

  async remove(companyId: number, id: number) {
    if (!isId(id)) return false;
    const rows = await this.em.execute<Row[]>('delete from order_settings where id = ? and company_id = ? returning id', [id, companyId]);
    return rows.length > 0;
  }
}
