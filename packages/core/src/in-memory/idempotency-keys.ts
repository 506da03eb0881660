import type { IdempotencyKeys, IdempotencyRecord } from '../conversations/idempotency-keys.js';

export class InMemoryIdempotencyKeys implements IdempotencyKeys {
  private readonly rows = new Map<string, IdempotencyRecord>();
  async find(connectionId: number, key: string) {
    const row = this.rows.get(`${connectionId}:${key}`);
    return row ? structuredClone(row) : null;
  }
  async add(record: IdempotencyRecord) {
    const id = `${record.connectionId}:${record.key}`;
    if (this.rows.has(id)) return false;
    this.rows.set(id, structuredClone(record));
    return true;
  }
  async removeOlderThan(before: Date) {
    let n = 0;
    for (const [id, r] of this.rows)
      if (r.createdAt < before) {
        this.rows.delete(id);
        n++;
      }
    return n;
  }
}
