import { Migration } from '@mikro-orm/migrations';

/**
 * The messaging spine: connections, tickets, messages and the outbox. The concurrency rules of
 * the ports live here as constraints: one contact per number, at most one active ticket per
 * contact and connection (a partial unique index), one message per provider id and connection.
 */
export class M0003Messaging extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table connections (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(120) not null,
      kind varchar(20) not null check (kind in ('chatapp', 'socialnet', 'bizchat')),
      provider varchar(20) not null check (provider in ('sandbox', 'baileys', 'messenger', 'instagram')),
      status varchar(20) not null default 'OPENING' check (status in ('OPENING', 'qrcode', 'CONNECTED', 'DISCONNECTED', 'PENDING')),
      qrcode text,
      greeting_message text,
      farewell_message text,
      out_of_hours_message text,
      is_default boolean not null default false,
      token_digest varchar(200) unique,
      token_hint varchar(40),
      external_id varchar(200),
      secrets jsonb not null default '{}',
      reopen_window_minutes int not null default 0,
      greeting_media_key varchar(500),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index connections_company_id_idx on connections (company_id)');
    this.addSql(`create index connections_external_id_idx on connections (external_id) where kind = 'socialnet'`);

    this.addSql('alter table contacts add column is_group boolean not null default false');
    this.addSql('alter table contacts add column profile_pic_url text');

    this.addSql(`create table tickets (
      id serial primary key,
      uuid uuid not null unique,
      company_id int not null references companies(id) on delete cascade,
      contact_id int not null references contacts(id) on delete cascade,
      connection_id int not null references connections(id) on delete cascade,
      status varchar(10) not null default 'pending' check (status in ('pending', 'open', 'closed')),
      user_id int references users(id) on delete set null,
      queue_id int,
      unread_messages int not null default 0,
      last_message text not null default '',
      is_group boolean not null default false,
      greeted_at timestamptz,
      closed_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    // The database rule behind Tickets.getOrCreateActive: at most one active ticket per pair.
    this.addSql(`create unique index tickets_one_active_idx on tickets (contact_id, connection_id) where status in ('pending', 'open')`);
    this.addSql('create index tickets_company_id_status_updated_at_idx on tickets (company_id, status, updated_at desc)');
    this.addSql('create index tickets_company_id_updated_at_idx on tickets (company_id, updated_at desc)');
    this.addSql('create index tickets_contact_id_connection_id_closed_at_idx on tickets (contact_id, connection_id, closed_at desc)');
    this.addSql('create index tickets_connection_id_idx on tickets (connection_id)');
    this.addSql('create index tickets_user_id_idx on tickets (user_id)');

    // m0002's messages table had no writer and a bigserial id; the domain's message id is a uuid.
    this.addSql('drop table messages');
    this.addSql(`create table messages (
      id uuid primary key,
      company_id int not null references companies(id) on delete cascade,
      ticket_id int not null references tickets(id) on delete cascade,
      contact_id int references contacts(id) on delete set null,
      connection_id int not null references connections(id) on delete cascade,
      provider_message_id varchar(200),
      from_me boolean not null default false,
      body text not null default '',
      media jsonb,
      status varchar(10) not null default 'pending' check (status in ('pending', 'sent', 'delivered', 'read', 'played', 'failed')),
      failure_reason text,
      quoted_message_id uuid,
      is_private boolean not null default false,
      user_id int references users(id) on delete set null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (connection_id, provider_message_id)
    )`);
    this.addSql('create index messages_ticket_id_created_at_idx on messages (ticket_id, created_at desc)');
    this.addSql('create index messages_company_id_created_at_idx on messages (company_id, created_at)');
    this.addSql('create index messages_contact_id_idx on messages (contact_id)');
    this.addSql('create index messages_user_id_idx on messages (user_id)');

    // `seq` orders entries written in the same millisecond (one transaction often writes several).
    this.addSql(`create table outbox (
      id uuid primary key,
      seq bigint generated always as identity,
      subject varchar(200) not null,
      payload jsonb,
      created_at timestamptz not null,
      published_at timestamptz,
      attempts int not null default 0
    )`);
    this.addSql('create index outbox_pending_idx on outbox (created_at, seq) where published_at is null');
  }

  override async down(): Promise<void> {
    for (const t of ['outbox', 'messages', 'tickets', 'connections']) this.addSql(`drop table if exists ${t}`);
    this.addSql('alter table contacts drop column if exists is_group, drop column if exists profile_pic_url');
    this.addSql(`create table messages (
      id bigserial primary key,
      company_id int not null references companies(id) on delete cascade,
      contact_id int references contacts(id) on delete set null,
      body text not null default '',
      from_me boolean not null default false,
      created_at timestamptz not null
    )`);
    this.addSql('create index messages_company_id_created_at_idx on messages (company_id, created_at)');
  }
}
