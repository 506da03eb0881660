import type { Sql } from './sql.js';

export interface TenantShape {
  readonly companyId: number;
  readonly connectionId: number;
  /** The tenant's operators; tickets that are open or closed are spread over them. */
  readonly userIds: readonly number[];
  readonly tickets: number;
  readonly messagesPerTicket: number;
}

/**
 * Writes a generated tenant straight into the bench database: one contact per ticket, tickets
 * 10 % pending (unassigned), 30 % open and 60 % closed (assigned round-robin to the operators),
 * last activity spread over 180 days, and `messagesPerTicket` messages each. Deterministic.
 */
export async function seedTenant(sql: Sql, t: TenantShape): Promise<void> {
  const users = `array[${t.userIds.map(Number).join(',')}]::int[]`;
  const n = t.userIds.length;
  await sql.exec(`
    insert into contacts (company_id, name, number, created_at, updated_at)
    select ${t.companyId}, 'Bench contact ' || g, (5521900000000 + g)::text, now() - interval '200 days', now() - interval '200 days'
    from generate_series(1, ${t.tickets}) g;

    insert into tickets (uuid, company_id, contact_id, connection_id, status, user_id, unread_messages, last_message, is_group,
                         created_at, updated_at, closed_at)
    select md5('bench-ticket-' || c.id)::uuid, c.company_id, c.id, ${t.connectionId},
           case when c.id % 10 = 0 then 'pending' when c.id % 10 <= 3 then 'open' else 'closed' end,
           case when c.id % 10 = 0 then null else (${users})[1 + (c.id % ${n})] end,
           case when c.id % 10 = 0 then 1 + c.id % 5 else 0 end,
           'Mensagem ' || c.id || ' sobre o pedido ' || (c.id * 7919 % 100000),
           false,
           c.at - interval '2 hours', c.at, case when c.id % 10 > 3 then c.at else null end
    from (select id, company_id, now() - ((id * 7919) % 15552000) * interval '1 second' as at
          from contacts where company_id = ${t.companyId}) c;

    insert into messages (id, company_id, ticket_id, contact_id, connection_id, provider_message_id, from_me, body, status,
                          created_at, updated_at)
    select md5('bench-message-' || t.id || '-' || g)::uuid, t.company_id, t.id, t.contact_id, t.connection_id,
           'bench-' || t.id || '-' || g, g % 2 = 0, 'Mensagem ' || g || ' do atendimento ' || t.id, 'read',
           t.updated_at - (${t.messagesPerTicket} - g) * interval '1 minute', t.updated_at - (${t.messagesPerTicket} - g) * interval '1 minute'
    from tickets t cross join generate_series(1, ${t.messagesPerTicket}) g
    where t.company_id = ${t.companyId};

    analyze contacts; analyze tickets; analyze messages;
  `);
}

/** What `GET /tickets` (no filter) selects for an operator: pending tickets and their own. */
export const OPERATOR_FILTER = `t.company_id = $1 and (t.status = 'pending' or t.user_id = $2)`;

/**
 * The equivalent single SQL query of `GET /tickets` page 1 for an operator: the page of 20 by
 * last activity with contact, connection, user and tags, and the total count, in one statement.
 */
export const TICKET_PAGE_SQL = `
  with page as (
    select t.* from tickets t where ${OPERATOR_FILTER}
    order by t.updated_at desc, t.id desc limit 20 offset 0
  )
  select p.*, c.name as contact_name, c.number as contact_number, c.profile_pic_url, cn.name as connection_name, u.name as user_name,
         coalesce((select json_agg(json_build_object('id', tg.id, 'name', tg.name, 'color', tg.color, 'kanban', tg.kanban))
                   from ticket_tags tt join tags tg on tg.id = tt.tag_id where tt.ticket_id = p.id), '[]') as tags,
         (select count(*) from tickets t where ${OPERATOR_FILTER}) as total
  from page p
  join contacts c on c.id = p.contact_id
  join connections cn on cn.id = p.connection_id
  left join users u on u.id = p.user_id
  order by p.updated_at desc, p.id desc`;

/** The two statements the repository itself runs for the list (page, then count), for EXPLAIN ANALYZE. */
export const PRODUCT_LIST_SQL = [
  `select t.* from tickets as t where ${OPERATOR_FILTER} order by t.updated_at desc, t.id desc limit 20`,
  `select count(*) as count from tickets as t where ${OPERATOR_FILTER}`,
];
