import type { Queryable } from './sql.js';

/**
 * The contact upsert and ticket upsert every message of a conversation writes, straight through the
 * driver (company 1): an inbound one opens a pending ticket or adds one unread to the active one; an
 * outbound one opens an open ticket or only moves its last message.
 */
export async function conversationRows(q: Queryable, connectionId: number, number: string, text: string, direction: 'inbound' | 'outbound') {
  const [contact] = await q.query<{ id: number }>(
    `insert into contacts (company_id, name, number, created_at, updated_at) values (1, $1, $1, now(), now())
     on conflict (company_id, number) do update set updated_at = excluded.updated_at returning id`,
    [number],
  );
  const inbound = direction === 'inbound';
  const [ticket] = await q.query<{ id: number }>(
    `insert into tickets (uuid, company_id, contact_id, connection_id, status, unread_messages, last_message, created_at, updated_at)
     values (gen_random_uuid(), 1, $1, $2, '${inbound ? 'pending' : 'open'}', ${inbound ? 1 : 0}, $3, now(), now())
     on conflict (contact_id, connection_id) where status in ('pending', 'open')
     do update set ${inbound ? 'unread_messages = tickets.unread_messages + 1, ' : ''}last_message = excluded.last_message, updated_at = excluded.updated_at
     returning id`,
    [contact!.id, connectionId, text],
  );
  return { contactId: contact!.id, ticketId: ticket!.id };
}
