import {
  type Message,
  type MessageMedia,
  type Messages,
  type Page,
  type PageRequest,
  DELIVERY_ORDER,
  type DeliveryChange,
  type MessageCountFilter,
  type MessageQuery,
} from '@servicedesk/core';
import { MessageSchema } from './schema.js';
import { MikroOrmRepository } from '../shared/context.js';
import { DeferredWrites } from '../shared/deferred-writes.js';
import { changeRounds, inCompany, slices } from '../shared/sql.js';
import { READ, UUID, fromRow, insertSql } from './message-rows.js';

const MESSAGE_FIELDS = [
  'id',
  'companyId',
  'ticketId',
  'contactId',
  'connectionId',
  'providerMessageId',
  'fromMe',
  'body',
  'media',
  'status',
  'failureReason',
  'quotedMessageId',
  'isPrivate',
  'userId',
  'createdAt',
  'updatedAt',
  'isDeleted',
  'isEdited',
  'editedAt',
  'transcription',
  'kind',
] as const;

/**
 * `advanceDelivery` in SQL, for the status column `current` and the reported status `reported`:
 * failed is terminal, failed only follows pending, and otherwise only later steps are taken.
 */
function nextStatusSql(current: string, reported: string): string {
  const order = `array[${DELIVERY_ORDER.map((s) => `'${s}'`).join(', ')}]::varchar[]`;
  return `(case when ${current} = 'failed' then ${current}
    when ${reported} = 'failed' then case when ${current} = 'pending' then 'failed' else ${current} end
    when array_position(${order}, ${reported}) > array_position(${order}, ${current}::varchar) then ${reported} else ${current} end)`;
}

/** Delivery changes per statement at most (nine parameters each). */
const DELIVERY_CHUNK = 500;

/** How a batch of delivery changes finds its rows: by our id, or by the provider's id on a connection. */
const DELIVERY_TARGETS = {
  id: {
    columns: 'id',
    types: ['uuid'],
    match: 'm.id = v.id',
    values: (t: DeliveryChange['target']) => ('id' in t ? [t.id] : []),
  },
  provider: {
    columns: 'connection_id, provider_id',
    types: ['int', 'varchar'],
    match: 'm.connection_id = v.connection_id and m.provider_message_id = v.provider_id',
    values: (t: DeliveryChange['target']) => ('id' in t ? [] : [t.connectionId, t.providerMessageId]),
  },
} as const;

const messageFromRow = (row: Record<string, unknown>): Message => fromRow<Message>(row, MESSAGE_FIELDS);

export class MikroOrmMessages extends MikroOrmRepository implements Messages {
  async findById(companyId: number, id: string) {
    if (!UUID.test(id)) return null;
    return this.em.findOne(MessageSchema, { id, ...inCompany(companyId) }, READ) as Promise<Message | null>;
  }
  async findByProviderId(connectionId: number, providerMessageId: string) {
    return this.em.findOne(MessageSchema, { connectionId, providerMessageId }, READ) as Promise<Message | null>;
  }
  /** Deferred to the transaction's next statement (or its commit): nothing reads its answer. */
  async add(message: Message) {
    const insert = insertSql('messages', message, MESSAGE_FIELDS, ['media']);
    await DeferredWrites.write(this.em, insert.sql, insert.params);
  }
  /** The unique (connection_id, provider_message_id) drops duplicates; NULL provider ids never collide. */
  async addInbound(message: Message) {
    const insert = insertSql('messages', message, MESSAGE_FIELDS, ['media']);
    const rows = await this.em.execute<Array<{ id: string }>>(
      `${insert.sql} on conflict (connection_id, provider_message_id) do nothing returning id`,
      insert.params,
    );
    return rows.length === 1;
  }
  async update(message: Message) {
    const { id, companyId, ...fields } = message;
    await this.em.nativeUpdate(MessageSchema, { id, companyId }, fields);
  }
  /** One statement on the one column: whatever else changed meanwhile (a delivery report) stays. */
  async setTranscription(companyId: number, id: string, transcription: string, at: Date): Promise<Message | null> {
    if (!UUID.test(id)) return null;
    const rows = await this.em.execute<Array<Record<string, unknown>>>(
      'update messages set transcription = ?, updated_at = ? where company_id = ? and id = cast(? as uuid) returning *',
      [transcription, at, companyId, id],
    );
    return rows[0] ? messageFromRow(rows[0]) : null;
  }
  /** One statement on the one column, only while the file is pending: a second run of its job changes nothing. */
  async settleMedia(companyId: number, id: string, media: MessageMedia, at: Date): Promise<Message | null> {
    if (!UUID.test(id)) return null;
    const rows = await this.em.execute<Array<Record<string, unknown>>>(
      "update messages set media = cast(? as jsonb), updated_at = ? where company_id = ? and id = cast(? as uuid) and media->>'status' = 'pending' returning *",
      [JSON.stringify(media), at, companyId, id],
    );
    return rows[0] ? messageFromRow(rows[0]) : null;
  }
  /**
   * Forward-only in SQL: each next status is computed from the row as locked, so reports racing
   * each other can never move it backwards (see `advanceDelivery`). One `update … from (values …)`
   * per kind of target takes every change of the batch, but a row can take only one change per
   * statement: a message's second change goes in a second round, after the first.
   */
  async advanceStatuses(changes: readonly DeliveryChange[]): Promise<Array<Message | null>> {
    const results: Array<Message | null> = changes.map(() => null);
    const rounds = changeRounds(changes, (c) => {
      const t = c.target;
      if (
        !Number.isSafeInteger(c.companyId) ||
        ('id' in t ? !UUID.test(t.id) : !Number.isSafeInteger(t.connectionId) || typeof t.providerMessageId !== 'string')
      )
        return null;
      return 'id' in t ? `id:${t.id.toLowerCase()}` : `provider:${t.connectionId}:${t.providerMessageId}`;
    });
    for (const round of rounds) {
      for (const kind of ['id', 'provider'] as const) {
        const ofKind = round.filter((i) => 'id' in changes[i]!.target === (kind === 'id'));
        for (const chunk of slices(ofKind, DELIVERY_CHUNK)) {
          for (const row of await this.advanceChunk(
            kind,
            chunk.map((i) => ({ ord: i, change: changes[i]! })),
          ))
            results[Number(row.ord)] = messageFromRow(row);
        }
      }
    }
    return results;
  }

  private advanceChunk(kind: keyof typeof DELIVERY_TARGETS, items: ReadonlyArray<{ ord: number; change: DeliveryChange }>) {
    const target = DELIVERY_TARGETS[kind];
    const row = `(cast(? as int), cast(? as int), ${target.types.map((t) => `cast(? as ${t})`).join(', ')}, cast(? as varchar), cast(? as varchar), cast(? as text), cast(? as timestamptz))`;
    const params = items.flatMap(({ ord, change: c }) => [
      ord,
      c.companyId,
      ...target.values(c.target),
      c.status,
      c.providerMessageId ?? null,
      c.failureReason ?? null,
      c.at,
    ]);
    const next = nextStatusSql('m.status', 'v.status');
    return this.em.execute<Array<Record<string, unknown>>>(
      `update messages m set status = ${next}, provider_message_id = coalesce(m.provider_message_id, v.provider),
         failure_reason = case when ${next} = 'failed' and m.status <> 'failed' then v.reason else m.failure_reason end, updated_at = v.at
       from (values ${items.map(() => row).join(', ')}) as v(ord, company_id, ${target.columns}, status, provider, reason, at)
       where ${target.match} and (m.company_id = v.company_id) is true
         and (${next} <> m.status or (m.provider_message_id is null and v.provider is not null))
       returning v.ord, m.*`,
      params,
    );
  }
  /**
   * `status = 'pending'` again in the update: a send that went out meanwhile is left alone. The
   * stale ids are read once (a materialized CTE), then each row by key: as an `in (subquery)` the
   * planner could rescan the subquery for every pending message, which under a send backlog (many
   * pending, statistics that saw none) took seconds every run. The second check is written so that
   * the pending index cannot serve it (`is true`): as a plain condition the planner walked every
   * pending send again and matched each against the stale list (pending × stale comparisons,
   * 3.6 s a run in the bench beside a 1,000,000-message tenant).
   */
  async failStaleSends(before: Date, reason: string, at: Date, limit: number): Promise<Message[]> {
    const rows = await this.em.execute<Array<Record<string, unknown>>>(
      `with stale as materialized (
         select id from messages where status = 'pending' and from_me and not is_private and created_at < ? order by created_at limit ?)
       update messages m set status = 'failed', failure_reason = ?, updated_at = ?
       from stale where m.id = stale.id and (m.status = 'pending') is true
       returning m.*`,
      [before, limit, reason, at],
    );
    return rows.map(messageFromRow);
  }
  async listByTicket(companyId: number, ticketId: number, page: PageRequest): Promise<Page<Message>> {
    const [rows, count] = await this.em.findAndCount(
      MessageSchema,
      { companyId, ticketId },
      {
        ...READ,
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        offset: page.offset,
        limit: page.limit,
      },
    );
    return { rows: rows as Message[], count };
  }
  async list(q: MessageQuery): Promise<Page<Message>> {
    const where = {
      companyId: q.companyId,
      ...(q.ticketId !== undefined ? { ticketId: q.ticketId } : {}),
      ...(q.userId !== undefined ? { userId: q.userId } : {}),
      ...(q.withMedia ? { media: { $ne: null } } : {}),
    };
    const [rows, count] = await this.em.findAndCount(MessageSchema, where, {
      ...READ,
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows: rows as Message[], count };
  }
  async count(f: MessageCountFilter) {
    // The company's (company_id, created_at) index bounds the range; an operator's tickets are joined.
    const where = ['m.company_id = ?'];
    const params: unknown[] = [f.companyId];
    if (f.fromMe !== undefined) {
      where.push('m.from_me = ?');
      params.push(f.fromMe);
    }
    if (f.from) {
      where.push('m.created_at >= ?');
      params.push(f.from);
    }
    if (f.to) {
      where.push('m.created_at < ?');
      params.push(f.to);
    }
    if (f.ticketUserId !== undefined) {
      where.push('t.user_id = ?');
      params.push(f.ticketUserId);
    }
    const join = f.ticketUserId !== undefined ? ' join tickets t on t.id = m.ticket_id and t.company_id = m.company_id' : '';
    const rows = await this.em.execute<Array<{ n: string | number }>>(`select count(*) as n from messages m${join} where ${where.join(' and ')}`, params);
    return Number(rows[0]?.n ?? 0);
  }
  async countByTickets(companyId: number, ticketIds: readonly number[]) {
    const counts = new Map<number, number>();
    if (!ticketIds.length) return counts;
    const rows = await this.em.execute<Array<{ ticket_id: number; n: string | number }>>(
      `select ticket_id, count(*) as n from messages where company_id = ? and ticket_id in (${ticketIds.map(() => '?').join(', ')}) group by ticket_id`,
      [companyId, ...ticketIds],
    );
    for (const r of rows) counts.set(Number(r.ticket_id), Number(r.n));
    return counts;
  }
  async removeByTicket(companyId: number, ticketId: number) {
    await this.em.nativeDelete(MessageSchema, { companyId, ticketId });
  }
}
