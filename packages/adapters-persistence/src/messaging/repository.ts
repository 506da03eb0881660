import { raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import {
  ConflictError,
  type Connection,
  type Connections,
  type Message,
  type MessageMedia,
  type MessageContextReads,
  type MessageContextRows,
  type Messages,
  type NewConnection,
  type Outbox,
  type OutboxEntry,
  type Page,
  type PageRequest,
  type Ticket,
  type TicketQuery,
  type Tickets,
  DELIVERY_ORDER,
  foldForSearch,
  withTicketDefaults,
  type DeliveryChange,
  type MessageCountFilter,
  type MessageQuery,
  type NewTicket,
  type TicketFilter,
} from '@servicedesk/core';
import { ConnectionSchema, MessageSchema, OutboxSchema, TicketSchema } from './schema.js';
import { MikroOrmRepository, likeTerm } from '../shared/context.js';
import { DeferredWrites } from '../shared/deferred-writes.js';
import { foldSql } from '../shared/search.js';
import { changeRounds, companyCheck, inCompany, marks, slices } from '../shared/sql.js';

const READ = { disableIdentityMap: true } as const;
const ACTIVE = ['pending', 'open'] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The column of a domain field: `createdAt` → `created_at`. */
const snake = (f: string) => f.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
/** How often a get-or-create retries when the row it collided with vanished before it could be read. */
const RACE_RETRIES = 3;

/**
 * An `insert` of the named fields of a domain object, in SQL the caller completes with an
 * `on conflict` clause. The raw statement joins the unit of work's transaction like any other.
 */
function insertSql<T extends object>(table: string, row: T, fields: ReadonlyArray<keyof T & string>, json: ReadonlyArray<keyof T & string> = []) {
  const columns = fields.map(snake);
  const marks = fields.map((f) => (json.includes(f) ? 'cast(? as jsonb)' : '?'));
  const params = fields.map((f) => {
    const value = row[f] ?? null;
    return json.includes(f) && value !== null ? JSON.stringify(value) : value;
  });
  return { sql: `insert into ${table} (${columns.join(', ')}) values (${marks.join(', ')})`, params };
}

export class MikroOrmConnections extends MikroOrmRepository implements Connections {
  async findById(companyId: number | null, id: number) {
    return this.em.findOne(ConnectionSchema, companyId === null ? { id } : { id, companyId }, READ);
  }
  async findByTokenDigest(digest: string) {
    return this.em.findOne(ConnectionSchema, { tokenDigest: digest }, READ);
  }
  async findByExternalId(externalId: string, kind: 'socialnet' | 'bizchat' = 'socialnet') {
    return this.em.findOne(ConnectionSchema, { kind, externalId }, { ...READ, orderBy: { id: 'asc' } });
  }
  async list(companyId: number) {
    return this.em.find(ConnectionSchema, { companyId }, { ...READ, orderBy: { id: 'asc' } });
  }
  async countByCompany(companyId: number) {
    return this.em.count(ConnectionSchema, { companyId });
  }
  async add(connection: NewConnection): Promise<Connection> {
    const id = (await tokenUnique(() => this.em.insert(ConnectionSchema, { ...connection } as Connection))) as number;
    return { ...connection, id };
  }
  async update(connection: Connection) {
    const { id, companyId, ...fields } = connection;
    await tokenUnique(() => this.em.nativeUpdate(ConnectionSchema, { id, companyId }, fields));
  }
  async remove(companyId: number, id: number) {
    await this.em.nativeDelete(ConnectionSchema, { id, companyId });
  }
}

/** The partial unique index refuses a second active ticket of the pair: a 409, as the use cases' own check. */
function otherActiveTicket(err: unknown): Error | null {
  const e = err as { constraint?: unknown; message?: unknown };
  const named = e?.constraint === 'tickets_one_active_idx' || (typeof e?.message === 'string' && /tickets_one_active_idx/.test(e.message));
  return named && (err instanceof UniqueConstraintViolationException || (err as { code?: unknown }).code === '23505')
    ? new ConflictError('ERR_OTHER_OPEN_TICKET')
    : null;
}

/** Two connections saving the same token (or page id, or phone-number id) at once: the unique index decides, as a 409 like the use case's check. */
async function tokenUnique<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    // By the constraint's name: the message also quotes the statement, which names every column.
    if (err instanceof UniqueConstraintViolationException && /connections_external_id_key/.test(err.message)) throw new ConflictError('ERR_PAGE_IN_USE');
    if (err instanceof UniqueConstraintViolationException && /connections_bizchat_number_key/.test(err.message))
      throw new ConflictError('ERR_BIZCHAT_NUMBER_IN_USE');
    if (err instanceof UniqueConstraintViolationException && /token_digest/.test(err.message)) throw new ConflictError('ERR_TOKEN_IN_USE');
    throw err;
  }
}

const TICKET_FIELDS = [
  'uuid',
  'companyId',
  'contactId',
  'connectionId',
  'status',
  'userId',
  'queueId',
  'unreadMessages',
  'lastMessage',
  'isGroup',
  'greetedAt',
  'closedAt',
  'createdAt',
  'updatedAt',
  'queueOptionId',
  'botAttempts',
  'botActive',
] as const;

export class MikroOrmTickets extends MikroOrmRepository implements Tickets {
  async findById(companyId: number, id: number) {
    return this.em.findOne(TicketSchema, { id, ...inCompany(companyId) }, READ);
  }
  async findByUuid(companyId: number, uuid: string) {
    if (!UUID.test(uuid)) return null;
    return this.em.findOne(TicketSchema, { uuid, companyId }, READ);
  }
  async findActive(companyId: number, contactId: number, connectionId: number) {
    return this.em.findOne(TicketSchema, { companyId, contactId, connectionId, status: { $in: [...ACTIVE] } }, READ);
  }
  async findLatestClosed(companyId: number, contactId: number, connectionId: number) {
    return this.em.findOne(
      TicketSchema,
      { companyId, contactId, connectionId, status: 'closed' },
      {
        ...READ,
        orderBy: [{ closedAt: 'desc nulls last' }, { id: 'desc' }],
      },
    );
  }
  /**
   * The partial unique index on (contact_id, connection_id) where the ticket is active decides
   * the race: the losers insert nothing and read the winner's ticket.
   */
  async getOrCreateActive(newTicket: NewTicket): Promise<{ ticket: Ticket; created: boolean }> {
    const draft = withTicketDefaults(newTicket);
    const insert = insertSql('tickets', draft, TICKET_FIELDS);
    // One round trip: the insert, or else the active ticket it collided with. A ticket committed
    // by a racing transaction after this statement began is invisible to its read: the next try sees it.
    for (let attempt = 0; attempt < RACE_RETRIES; attempt++) {
      const [row] = await this.em.execute<Array<Record<string, unknown>>>(
        `with ins as (${insert.sql} on conflict (contact_id, connection_id) where status in ('pending', 'open') do nothing returning *)
         select ins.*, true as created from ins
         union all
         select t.*, false from tickets t
           where t.company_id = ? and t.contact_id = ? and t.connection_id = ? and t.status in ('pending', 'open') and not exists (select 1 from ins)
         limit 1`,
        [...insert.params, draft.companyId, draft.contactId, draft.connectionId],
      );
      if (row?.created) return { ticket: { ...draft, id: Number(row.id) }, created: true };
      if (row) return { ticket: fromRow<Ticket>(row, ['id', ...TICKET_FIELDS]), created: false };
    }
    throw new Error(`no active ticket for contact ${draft.contactId} on connection ${draft.connectionId} could be created or read`);
  }
  /** A second active ticket of the pair is a 409 (`otherActiveTicket`). */
  async update(ticket: Ticket) {
    const fields = TICKET_FIELDS.filter((f) => f !== 'companyId' && ticket[f] !== undefined);
    // Deferred to the transaction's next statement (or its commit): nothing reads its answer.
    await DeferredWrites.write(
      this.em,
      `update tickets set ${fields.map((f) => `${snake(f)} = ?`).join(', ')} where id = ? and ${companyCheck()}`,
      [...fields.map((f) => ticket[f]), ticket.id, ticket.companyId],
      otherActiveTicket,
    );
  }
  async markGreeted(ticketId: number, at: Date) {
    return (await this.em.nativeUpdate(TicketSchema, { id: ticketId, greetedAt: null }, { greetedAt: at })) === 1;
  }
  async list(q: TicketQuery): Promise<Page<Ticket>> {
    const [rows, count] = await this.em.findAndCount(TicketSchema, ticketWhere(q), {
      ...READ,
      orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
      offset: q.page.offset,
      limit: q.page.limit,
    });
    return { rows, count };
  }
  async count(filter: TicketFilter) {
    return this.em.count(TicketSchema, ticketWhere(filter));
  }
  async remove(companyId: number, id: number) {
    await this.em.nativeDelete(TicketSchema, { id, companyId });
  }
}

const range = (from?: Date, to?: Date) => ({ ...(from ? { $gte: from } : {}), ...(to ? { $lt: to } : {}) });

/** Every condition of the filter, and-ed; the search also looks at the contact's name and number. */
function ticketWhere(f: TicketFilter): Record<string, unknown> {
  const where: Record<string, unknown> = { companyId: f.companyId };
  if (f.status) where.status = f.status;
  if (f.pendingOrAssignedTo !== undefined) where.$or = [pendingWhere(f.pendingInQueues), { userId: f.pendingOrAssignedTo }];
  if (f.userIds) where.userId = { $in: [...f.userIds] };
  if (f.queueIds) where.queueId = { $in: [...f.queueIds] };
  if (f.connectionId !== undefined) where.connectionId = f.connectionId;
  const and: Record<string, unknown>[] = [];
  if (f.connectionIds) and.push({ connectionId: { $in: [...f.connectionIds] } });
  if (f.withUnreadMessages) where.unreadMessages = { $gt: 0 };
  if (f.isGroup !== undefined) where.isGroup = f.isGroup;
  if (f.createdFrom || f.createdTo) where.createdAt = range(f.createdFrom, f.createdTo);
  if (f.updatedFrom || f.updatedTo) where.updatedAt = range(f.updatedFrom, f.updatedTo);
  if (f.statuses) and.push({ status: { $in: [...f.statuses] } });
  if (and.length) where.$and = and;
  Object.assign(where, tagWhere(f));
  if (f.search?.trim()) {
    const term = likeTerm(foldForSearch(f.search));
    const contactMatch = `select 1 from contacts sc where sc.id = %s.contact_id and (${foldSql('sc.name')} like ? or sc.number like ?)`;
    const expr = (alias: string) => `(${foldSql(`${alias}.last_message`)} like ? or exists (${contactMatch.replace('%s', alias)}))`;
    where[raw(expr, [term, term, term])] = [];
  }
  return where;
}

/** Pending tickets; with `queues`, only those without a queue or in one of them. */
function pendingWhere(queues: readonly number[] | undefined): Record<string, unknown> {
  if (!queues) return { status: 'pending' };
  return { status: 'pending', $or: [{ queueId: null }, ...(queues.length ? [{ queueId: { $in: [...queues] } }] : [])] };
}

/** The tag filters: any of `tagIds`, and `hasTagId`, and none of `lacksTagIds` (each an `exists` on ticket_tags). */
function tagWhere(f: TicketFilter): Record<string, unknown> {
  const where: Record<string, unknown> = {};
  const tagged = (ids: readonly number[]) => (alias: string) =>
    `exists (select 1 from ticket_tags tt where tt.ticket_id = ${alias}.id and tt.tag_id in (${ids.map(() => '?').join(', ')}))`;
  if (f.tagIds) where[raw(f.tagIds.length ? tagged(f.tagIds) : () => 'false', [...f.tagIds])] = [];
  if (f.hasTagId !== undefined) where[raw(tagged([f.hasTagId]), [f.hasTagId])] = [];
  if (f.lacksTagIds?.length) where[raw((alias: string) => `not ${tagged(f.lacksTagIds!)(alias)}`, [...f.lacksTagIds])] = [];
  return where;
}

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

/**
 * A raw row (snake_case columns, as a `returning *` or `select *` gives it) as a domain object:
 * the named fields only; timestamps as Dates; JSON parsed if the driver left it a string.
 */
function fromRow<T>(row: Record<string, unknown>, fields: readonly string[]): T {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = row[snake(f)];
    out[f] = typeof v === 'string' && /At$/.test(f) ? new Date(v) : v;
  }
  if (typeof out.media === 'string') out.media = JSON.parse(out.media);
  return out as T;
}

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

/** Placeholders for a list, or a condition that holds for no row when it is empty. */
const within = (column: string, ids: readonly unknown[]) => (ids.length ? `${column} in (${marks(ids.length)})` : 'false');

/**
 * What message views embed, in one statement: the tickets with their queues, then the contacts,
 * as the rows of one `union all` (a delivery report's frame reads this once, not three times).
 */
export class MikroOrmMessageContextReads extends MikroOrmRepository implements MessageContextReads {
  async ticketsAndContacts(companyId: number, ticketIds: readonly number[], contactIds: readonly number[]): Promise<MessageContextRows> {
    const tickets = [...new Set(ticketIds)].filter(Number.isSafeInteger);
    const contacts = [...new Set(contactIds)].filter(Number.isSafeInteger);
    if (!tickets.length && !contacts.length) return { tickets: [], contacts: [] };
    const rows = await this.em.execute<Array<Record<string, unknown>>>(
      `select 't' as kind, t.id, t.uuid::text as uuid, t.status, t.user_id, t.queue_id, t.connection_id, q.id as qid, q.name, q.color, null::text as number, null::text as picture
         from tickets t left join queues q on q.id = t.queue_id and q.company_id = t.company_id
        where ${within('t.id', tickets)} and ${companyCheck('t')}
       union all
       select 'c', c.id, null, null, null, null, null, null, c.name, null, c.number, c.profile_pic_url
         from contacts c where ${within('c.id', contacts)} and ${companyCheck('c')}`,
      [...tickets, companyId, ...contacts, companyId],
    );
    const out = { tickets: [] as Array<MessageContextRows['tickets'][number]>, contacts: [] as Array<MessageContextRows['contacts'][number]> };
    const int = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    for (const r of rows) {
      if (r.kind === 't') {
        out.tickets.push({
          id: Number(r.id),
          uuid: String(r.uuid),
          status: String(r.status),
          userId: int(r.user_id),
          queueId: int(r.queue_id),
          chatappId: Number(r.connection_id),
          queue: r.qid === null || r.qid === undefined ? null : { id: Number(r.qid), name: String(r.name), color: String(r.color) },
        });
      } else {
        out.contacts.push({ id: Number(r.id), name: String(r.name), number: String(r.number), urlPicture: (r.picture as string | null) ?? null });
      }
    }
    return out;
  }
}

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
