import { Migration } from '@mikro-orm/migrations';

/** The counters of `ticket_day_figures`, in the order of `FIGURE_KEYS`; the durations are milliseconds (bigint). */
export const FIGURE_COLUMNS = [
  'tickets',
  'inbound',
  'outbound',
  'groups',
  'leads',
  'reopened',
  'closed',
  'unattended_closed',
  'transfers',
  'wait_count',
  'wait_ms',
  'handle_count',
  'handle_ms',
  'first_response_count',
  'first_response_ms',
  'resolution_count',
  'resolution_ms',
  'rated',
  'rating_sum',
  'promoters',
  'passives',
  'detractors',
] as const;
export const isDurationColumn = (c: string) => c.endsWith('_ms');

/**
 * Ticket tracking and the dashboards' figures.
 *
 * `ticket_cycles`: one row per attendance cycle of a ticket (created or reopened → closed), written
 * with every ticket change in its transaction; at most one open cycle per ticket (the partial unique
 * index the writers' `on conflict` relies on). A cycle goes with its ticket and its company.
 * Existing tickets get one cycle each, from what the tickets, their logs and messages say: accepted
 * at the first `accept` entry (else the first operator message), first response at the first
 * operator message, closed when the ticket is, rated as its last close entry says.
 *
 * `ticket_day_figures`: the cycles summed per company, day (in the company's zone), queue and
 * operator (0: none); `dashboard_refreshes`: how far each company's figures go.
 */
export class M0020TicketTracking extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table ticket_cycles (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      ticket_id int not null references tickets(id) on delete cascade,
      contact_id int not null,
      connection_id int not null,
      queue_id int,
      user_id int,
      is_group boolean not null default false,
      outbound boolean not null default false,
      reopened boolean not null default false,
      first_contact boolean not null default false,
      started_at timestamptz not null,
      accepted_at timestamptz,
      first_response_at timestamptz,
      closed_at timestamptz,
      rating smallint check (rating >= 1 and rating <= 5),
      transfers int not null default 0,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index ticket_cycles_one_open_idx on ticket_cycles (ticket_id) where closed_at is null');
    this.addSql('create index ticket_cycles_company_id_started_at_idx on ticket_cycles (company_id, started_at)');
    this.addSql('create index ticket_cycles_company_id_updated_at_idx on ticket_cycles (company_id, updated_at)');
    this.addSql('create index ticket_cycles_company_id_contact_id_idx on ticket_cycles (company_id, contact_id)');
    this.addSql('create index ticket_cycles_open_started_at_idx on ticket_cycles (company_id, started_at) where closed_at is null');
    this.addSql('create index ticket_cycles_ticket_id_idx on ticket_cycles (ticket_id)');

    this.addSql(`insert into ticket_cycles (company_id, ticket_id, contact_id, connection_id, queue_id, user_id, is_group, first_contact,
        started_at, accepted_at, first_response_at, closed_at, rating, updated_at)
      select t.company_id, t.id, t.contact_id, t.connection_id, t.queue_id, t.user_id, t.is_group,
        not exists (select 1 from tickets p where p.contact_id = t.contact_id and p.id < t.id),
        t.created_at,
        coalesce(
          (select min(l.created_at) from ticket_logs l where l.company_id = t.company_id and l.ticket_id = t.id and l.type = 'accept'),
          f.at),
        f.at,
        case when t.status = 'closed' then greatest(coalesce(t.closed_at, t.updated_at), t.created_at) end,
        (select (l.payload->>'rating')::smallint from ticket_logs l
          where l.company_id = t.company_id and l.ticket_id = t.id and l.type = 'close' and l.payload->>'rating' ~ '^[1-5]$'
          order by l.created_at desc, l.id desc limit 1),
        now()
      from tickets t
      left join lateral (select min(m.created_at) as at from messages m
        where m.ticket_id = t.id and m.from_me and m.user_id is not null and not m.is_private and m.created_at >= t.created_at) f on true`);

    const counters = FIGURE_COLUMNS.map((c) => `${c} ${isDurationColumn(c) ? 'bigint' : 'int'} not null default 0`).join(',\n      ');
    this.addSql(`create table ticket_day_figures (
      company_id int not null references companies(id) on delete cascade,
      day date not null,
      queue_id int not null default 0,
      user_id int not null default 0,
      ${counters},
      primary key (company_id, day, queue_id, user_id)
    )`);

    this.addSql(`create table dashboard_refreshes (
      company_id int primary key references companies(id) on delete cascade,
      time_zone varchar(64) not null,
      watermark timestamptz not null,
      refreshed_at timestamptz not null,
      rebuilt_at timestamptz not null
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists dashboard_refreshes');
    this.addSql('drop table if exists ticket_day_figures');
    this.addSql('drop table if exists ticket_cycles');
  }
}
