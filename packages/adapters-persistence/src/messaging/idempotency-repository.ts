import type { IdempotencyKeys, IdempotencyRecord } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';

interface Row {
  company_id: number;
  connection_id: number;
  key: string;
  fingerprint: string;
  answer: unknown;
  created_at: Date | string;
}

/**
 * The message API's idempotency keys. `add` runs in the send's transaction; a key another
 * transaction holds makes it wait for that one, then find the key there (PostgreSQL's
 * `on conflict do nothing`), so two concurrent requests with one key store one send.
 */
export class MikroOrmIdempotencyKeys extends MikroOrmRepository implements IdempotencyKeys {
  async find(connectionId: number, key: string): Promise<IdempotencyRecord | null> {
    const [row] = await this.em.execute<Row[]>('select * from idempotency_keys where connection_id = ? and key = ?', [connectionId, key]);
    if (!row) return null;
    const answer = typeof row.answer === 'string' ? JSON.parse(row.answer) : row.answer;
    return {
      companyId: Number(row.company_id),
      connectionId: Number(row.connection_id),
      key: row.key,
      fingerprint: row.fingerprint,
      answer,
      createdAt: new Date(row.created_at),
    };
  }

  async add(r: IdempotencyRecord): Promise<boolean> {
    const rows = await this.em.execute<Array<{ key: string }>>(
      `insert into idempotency_keys (connection_id, key, company_id, fingerprint, answer, created_at) values (?, ?, ?, ?, ?::jsonb, ?)
       on conflict (connection_id, key) do nothing returning key`,
      [r.connectionId, r.key, r.companyId, r.fingerprint, JSON.stringify(r.answer), r.createdAt],
    );
    return rows.length === 1;
  }

  async removeOlderThan(before: Date): Promise<number> {
    const rows = await this.em.execute<Array<{ key: string }>>('delete from idempotency_keys where created_at < ? returning key', [before]);
    return rows.length;
  }
}
