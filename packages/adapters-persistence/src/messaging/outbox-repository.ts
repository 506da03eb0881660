import { raw } from '@mikro-orm/core';
import type { Outbox, OutboxEntry } from '@servicedesk/core';
import { OutboxSchema } from './schema.js';
import { MikroOrmRepository } from '../shared/context.js';
import { DeferredWrites } from '../shared/deferred-writes.js';
import { READ, UUID } from './message-rows.js';

export class MikroOrmOutbox extends MikroOrmRepository implements Outbox {
  /** Deferred to the transaction's next statement (or its commit): nothing reads its answer. */
  async add(entry: OutboxEntry) {
    await DeferredWrites.write(
      this.em,
      'insert into outbox (id, subject, payload, created_at, published_at, attempts) values (?, ?, cast(? as jsonb), ?, null, 0)',
      [entry.id, entry.subject, entry.payload === undefined ? null : JSON.stringify(entry.payload), entry.createdAt],
    );
  }
  /** One multi-row insert, deferred like `add`; an id already there (the same event taken again) is left as it was. */
  async addOnce(entries: readonly OutboxEntry[]) {
    if (!entries.length) return;
    await DeferredWrites.write(
      this.em,
      `insert into outbox (id, subject, payload, created_at, published_at, attempts) values ${entries.map(() => '(?, ?, cast(? as jsonb), ?, null, 0)').join(', ')}
        on conflict (id) do nothing`,
      entries.flatMap((e) => [e.id, e.subject, e.payload === undefined ? null : JSON.stringify(e.payload), e.createdAt]),
    );
  }
  /** Oldest first; entries of one millisecond in the order they were written (the identity `seq`). */
  async pending(limit: number): Promise<OutboxEntry[]> {
    const rows = await this.em.find(
      OutboxSchema,
      { publishedAt: null },
      {
        ...READ,
        orderBy: [{ createdAt: 'asc' }, { [raw((alias: string) => `${alias}.seq`)]: 'asc' }],
        limit,
      },
    );
    return rows.map((r) => ({ id: r.id, subject: r.subject, payload: r.payload, createdAt: r.createdAt }));
  }
  /**
   * Keeps the first publication time of an entry published twice (a relay that crashed before
   * marking). `handled: false` (the in-process broker) also records the entries in `outbox_handling` (m0012) until `markHandled`. */
  async markPublished(ids: readonly string[], at: Date, options: { handled?: boolean } = {}) {
    const valid = ids.filter((id) => UUID.test(id));
    if (!valid.length) return;
    if (options.handled ?? true) {
      await this.em.nativeUpdate(OutboxSchema, { id: { $in: valid }, publishedAt: null }, { publishedAt: at });
      return;
    }
    // One statement: a crash between marking an entry published and recording it as not yet
    // handled would leave it published, never requeued, and its send lost.
    await this.em.execute(
      `with published as (update outbox set published_at = ? where id in (${valid.map(() => '?').join(', ')}) and published_at is null returning id)
       insert into outbox_handling (outbox_id, published_at) select id, ? from published on conflict (outbox_id) do nothing`,
      [at, ...valid, at],
    );
  }
  async markHandled(ids: readonly string[]) {
    const valid = ids.filter((id) => UUID.test(id));
    if (!valid.length) return;
    await this.em.execute(`delete from outbox_handling where outbox_id in (${valid.map(() => '?').join(', ')})`, valid);
  }
  /** Entries published to a broker that died with its process go back to pending. */
  async requeueUnhandled(since: Date): Promise<number> {
    const rows = await this.em.execute<Array<{ id: string }>>(
      `update outbox set published_at = null where published_at is not null and created_at >= ?
         and id in (select outbox_id from outbox_handling) returning id`,
      [since],
    );
    return rows.length;
  }
}
