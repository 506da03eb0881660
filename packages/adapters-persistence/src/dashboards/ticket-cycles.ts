import type { FigureFilter, NewTicketCycle, TicketCycle, TicketCycleChange, TicketCycles, TicketTracking } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';
import { DeferredWrites } from '../shared/deferred-writes.js';
import { marks } from '../shared/sql.js';

type Row = Record<string, unknown>;
const time = (v: unknown) => new Date(v as Date | string);
const maybeTime = (v: unknown) => (v === null || v === undefined ? null : new Date(v as Date | string));
const maybeNumber = (v: unknown) => (v === null || v === undefined ? null : Number(v));

function toCycle(r: Row): TicketCycle {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    ticketId: Number(r.ticket_id),
    contactId: Number(r.contact_id),
    connectionId: Number(r.connection_id),
    queueId: maybeNumber(r.queue_id),
    userId: maybeNumber(r.user_id),
    isGroup: Boolean(r.is_group),
    outbound: Boolean(r.outbound),
    reopened: Boolean(r.reopened),
    firstContact: Boolean(r.first_contact),
    startedAt: time(r.started_at),
    acceptedAt: maybeTime(r.accepted_at),
    firstResponseAt: maybeTime(r.first_response_at),
    closedAt: maybeTime(r.closed_at),
    rating: maybeNumber(r.rating),
    transfers: Number(r.transfers),
    updatedAt: time(r.updated_at),
  };
}

/** ` and queue_id in (…) and user_id in (…)` with its parameters. */
export function filterSql(f: FigureFilter): { sql: string; params: unknown[] } {
  let sql = '';
  const params: unknown[] = [];
  if (f.queueIds?.length) {
    sql += ` and queue_id in (${marks(f.queueIds.length)})`;
    params.push(...f.queueIds);
  }
  if (f.userIds?.length) {
    sql += ` and user_id in (${marks(f.userIds.length)})`;
    params.push(...f.userIds);
  }
  return { sql, params };
}

/**
 * `ticket_cycles`: written by the ticket changes (each write one statement, in the change's
 * transaction), read by the dashboards.
 */
export class MikroOrmTicketCycles extends MikroOrmRepository implements TicketTracking, TicketCycles {
  // The three writes below are deferred to the transaction's next statement (or its commit): nothing reads their answers.
  async open(c: NewTicketCycle): Promise<void> {
    // The contact's first cycle is a lead: decided in the insert itself, from the company's cycles of that contact.
    await DeferredWrites.write(
      this.em,
      `insert into ticket_cycles (company_id, ticket_id, contact_id, connection_id, queue_id, user_id, is_group, outbound, reopened, first_contact,
         started_at, accepted_at, first_response_at, closed_at, rating, transfers, updated_at)
       select ?, ?, ?, ?, ?, ?, ?, ?, ?, not exists (select 1 from ticket_cycles p where p.company_id = ? and p.contact_id = ?),
         ?, ?, ?, ?, ?, 0, ?
       on conflict (ticket_id) where closed_at is null do nothing`,
      [
        c.companyId,
        c.ticketId,
        c.contactId,
        c.connectionId,
        c.queueId,
        c.userId,
        c.isGroup,
        c.outbound,
        c.reopened,
        c.companyId,
        c.contactId,
        c.startedAt,
        c.acceptedAt,
        c.firstResponseAt,
        c.closedAt,
        c.rating,
        c.startedAt,
      ],
    );
  }

  async change(companyId: number, ticketId: number, change: TicketCycleChange): Promise<void> {
    const sets = ['queue_id = ?', 'user_id = ?', 'updated_at = ?'];
    const params: unknown[] = [change.queueId, change.userId, change.at];
    if (change.accepted) {
      sets.push('accepted_at = coalesce(accepted_at, ?)');
      params.push(change.at);
    }
    if (change.transferred) sets.push('transfers = transfers + 1');
    if (change.closed) {
      sets.push('closed_at = ?');
      params.push(change.at);
      if (change.rating !== undefined) {
        sets.push('rating = ?');
        params.push(change.rating);
      }
    }
    await DeferredWrites.write(this.em, `update ticket_cycles set ${sets.join(', ')} where company_id = ? and ticket_id = ? and closed_at is null`, [
      ...params,
      companyId,
      ticketId,
    ]);
  }

  async responded(companyId: number, ticketId: number, at: Date): Promise<void> {
    await DeferredWrites.write(
      this.em,
      'update ticket_cycles set first_response_at = ?, updated_at = ? where company_id = ? and ticket_id = ? and closed_at is null and first_response_at is null',
      [at, at, companyId, ticketId],
    );
  }

  async startedBetween(companyId: number, from: Date, to: Date): Promise<TicketCycle[]> {
    const rows = await this.em.execute<Row[]>(
      'select * from ticket_cycles where company_id = ? and started_at >= ? and started_at < ? order by started_at, id',
      [companyId, from, to],
    );
    return rows.map(toCycle);
  }

  async startsChangedSince(companyId: number, since: Date): Promise<Date[]> {
    const rows = await this.em.execute<Array<{ at: number | string }>>(
      `select distinct (floor(extract(epoch from started_at) / 900) * 900)::bigint as at
       from ticket_cycles where company_id = ? and updated_at >= ? order by at`,
      [companyId, since],
    );
    return rows.map((r) => new Date(Number(r.at) * 1000));
  }

  async firstStart(companyId: number): Promise<Date | null> {
    const [row] = await this.em.execute<Array<{ at: unknown }>>('select min(started_at) as at from ticket_cycles where company_id = ?', [companyId]);
    return maybeTime(row?.at);
  }

  async openCounts(companyId: number, from: Date, to: Date, filter: FigureFilter): Promise<{ waiting: number; attended: number }> {
    const f = filterSql(filter);
    const [row] = await this.em.execute<Array<{ waiting: unknown; attended: unknown }>>(
      `select count(*) filter (where user_id is null) as waiting, count(*) filter (where user_id is not null) as attended
       from ticket_cycles where company_id = ? and closed_at is null and started_at >= ? and started_at < ?${f.sql}`,
      [companyId, from, to, ...f.params],
    );
    return { waiting: Number(row?.waiting ?? 0), attended: Number(row?.attended ?? 0) };
  }

  async topContacts(companyId: number, from: Date, to: Date, filter: FigureFilter, limit: number) {
    const f = filterSql(filter);
    const rows = await this.em.execute<Array<{ contact_id: unknown; tickets: unknown; last: unknown }>>(
      `select contact_id, count(*) as tickets, max(started_at) as last
       from ticket_cycles where company_id = ? and started_at >= ? and started_at < ?${f.sql}
       group by contact_id order by tickets desc, last desc, contact_id limit ?`,
      [companyId, from, to, ...f.params, limit],
    );
    return rows.map((r) => ({ contactId: Number(r.contact_id), tickets: Number(r.tickets), lastStartedAt: time(r.last) }));
  }
}
