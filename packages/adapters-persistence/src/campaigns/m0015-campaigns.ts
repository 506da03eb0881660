import { Migration } from '@mikro-orm/migrations';

/**
 * Campaigns and what their dispatch keeps. `campaigns` holds the message variants, the audience
 * (a contact list and/or a tag), the sending connection and the status the state machine moves
 * with one conditional update. `campaign_recipients` are the materialised recipients, unique per
 * (campaign, canonical number); the dispatcher claims them with `FOR UPDATE SKIP LOCKED`. Their
 * connection, contact and list item are snapshots taken at start (no foreign key: the report
 * outlives a deleted connection, contact or list). `campaign_pacing` is each connection's pacing
 * state and next run, `campaign_sends` its recent sends (what the hourly and daily caps count),
 * `campaign_suppressions` the numbers that asked never to receive campaigns again, and
 * `campaign_settings` the company's key/value settings rows.
 */
export class M0015Campaigns extends Migration {
  override async up(): Promise<void> {
    const variants = (prefix: string) => [1, 2, 3, 4, 5].map((i) => `${prefix}${i} text not null default ''`).join(',\n      ');
    this.addSql(`create table campaigns (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(255) not null,
      ${variants('message')},
      ${variants('confirmation_message')},
      confirmation boolean not null default false,
      status varchar(20) not null default 'INATIVA'
        check (status in ('INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'PAUSADA', 'CANCELADA', 'FINALIZADA', 'FALHOU')),
      scheduled_at timestamptz,
      completed_at timestamptz,
      media_path varchar(500),
      media_name varchar(255),
      media_content_type varchar(255),
      media_size int,
      contact_list_id int references contact_lists(id) on delete set null,
      tag_list_id int references tags(id) on delete set null,
      chatapp_id int references connections(id) on delete set null,
      user_id int references users(id) on delete set null,
      queue_id int references queues(id) on delete set null,
      status_ticket varchar(10) not null default 'closed' check (status_ticket in ('open', 'pending', 'closed')),
      open_ticket varchar(10) not null default 'disabled' check (open_ticket in ('enabled', 'disabled')),
      materialized_at timestamptz,
      failure_reason text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index campaigns_status_scheduled_at_idx on campaigns (status, scheduled_at)');
    this.addSql('create index campaigns_company_id_status_scheduled_at_idx on campaigns (company_id, status, scheduled_at)');
    this.addSql('create index campaigns_chatapp_id_status_idx on campaigns (chatapp_id, status)');
    this.addSql('create index campaigns_contact_list_id_idx on campaigns (contact_list_id)');

    this.addSql(`create table campaign_recipients (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      campaign_id int not null references campaigns(id) on delete cascade,
      connection_id int not null,
      number varchar(64) not null,
      name varchar(255) not null default '',
      contact_id int,
      list_item_id int,
      variables jsonb not null default '{}',
      variant smallint not null default 0,
      body text not null default '',
      confirmation_body text,
      media_path varchar(500),
      media_name varchar(255),
      media_content_type varchar(255),
      media_size int,
      stage varchar(12) not null check (stage in ('confirmation', 'message')),
      state varchar(10) not null check (state in ('pending', 'sent', 'delivered', 'read', 'failed', 'skipped')),
      reason text,
      due_at timestamptz not null,
      claimed_until timestamptz,
      attempts int not null default 0,
      message_id varchar(200),
      sent_at timestamptz,
      delivered_at timestamptz,
      read_at timestamptz,
      confirmation_requested_at timestamptz,
      confirmed_at timestamptz,
      awaiting_until timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint campaign_recipients_campaign_id_number_key unique (campaign_id, number)
    )`);
    this.addSql('create index campaign_recipients_claim_idx on campaign_recipients (connection_id, state, due_at)');
    this.addSql('create index campaign_recipients_campaign_id_state_idx on campaign_recipients (campaign_id, state, id)');
    this.addSql('create index campaign_recipients_message_id_idx on campaign_recipients (message_id)');
    this.addSql('create index campaign_recipients_company_connection_number_idx on campaign_recipients (company_id, connection_id, number)');

    this.addSql(`create table campaign_pacing (
      connection_id int primary key references connections(id) on delete cascade,
      company_id int not null references companies(id) on delete cascade,
      last_sent_at timestamptz,
      next_gap_ms int not null default 0,
      streak int not null default 0,
      consecutive_errors int not null default 0,
      backoff_until timestamptz,
      next_run_at timestamptz
    )`);
    this.addSql('create index campaign_pacing_next_run_at_idx on campaign_pacing (next_run_at) where next_run_at is not null');

    this.addSql(`create table campaign_sends (
      id bigint generated always as identity primary key,
      connection_id int not null references connections(id) on delete cascade,
      sent_at timestamptz not null
    )`);
    this.addSql('create index campaign_sends_connection_id_sent_at_idx on campaign_sends (connection_id, sent_at)');

    this.addSql(`create table campaign_suppressions (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      number varchar(64) not null,
      reason text not null,
      campaign_id int references campaigns(id) on delete set null,
      created_at timestamptz not null,
      constraint campaign_suppressions_company_id_number_key unique (company_id, number)
    )`);

    this.addSql(`create table campaign_settings (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      key varchar(60) not null,
      value text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint campaign_settings_company_id_key_key unique (company_id, key)
    )`);
  }

  override async down(): Promise<void> {
    for (const t of ['campaign_settings', 'campaign_suppressions', 'campaign_sends', 'campaign_pacing', 'campaign_recipients', 'campaigns']) {
      this.addSql(`drop table if exists ${t}`);
    }
  }
}
