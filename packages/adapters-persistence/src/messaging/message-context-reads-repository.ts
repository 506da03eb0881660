import type { MessageContextReads, MessageContextRows } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';
import { companyCheck, marks } from '../shared/sql.js';

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
