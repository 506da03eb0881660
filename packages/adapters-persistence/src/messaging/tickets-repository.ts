import { raw, UniqueConstraintViolationException } from '@mikro-orm/core';
import {
  ConflictError,
  type Page,
  type Ticket,
  type TicketQuery,
  type Tickets,
  foldForSearch,
  withTicketDefaults,
  type NewTicket,
  type TicketFilter,
} from '@servicedesk/core';
import { TicketSchema } from './schema.js';
import { MikroOrmRepository, likeTerm } from '../shared/context.js';
import { DeferredWrites } from '../shared/deferred-writes.js';
import { foldSql } from '../shared/search.js';
import { companyCheck, inCompany } from '../shared/sql.js';
import { READ, UUID, fromRow, insertSql, snake } from './message-rows.js';

const ACTIVE = ['pending', 'open'] as const;

/** How often a get-or-create retries when the row it collided with vanished before it could be read. */
const RACE_RETRIES = 3;

/** The partial unique index refuses a second active ticket of the pair: a 409, as the use cases' own check. */
function otherActiveTicket(err: unknown): Error | null {
  const e = err as { constraint?: unknown; message?: unknown };
  const named = e?.constraint === 'tickets_one_active_idx' || (typeof e?.message === 'string' && /tickets_one_active_idx/.test(e.message));
  return named && (err instanceof UniqueConstraintViolationException || (err as { code?: unknown }).code === '23505')
    ? new ConflictError('ERR_OTHER_OPEN_TICKET')
    : null;
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
