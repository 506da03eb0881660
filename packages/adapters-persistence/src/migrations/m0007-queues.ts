import { Migration } from '@mikro-orm/migrations';

/**
 * Queues, their users and connections, their menu trees (queue options and chatbots in one table,
 * told apart by `kind`), queue integrations, and the routing engine's state on tickets. Names are
 * unique per company and option keys among siblings, ignoring case: the indexes decide races.
 * `tickets.queue_id` stays without a foreign key (tickets outlive their queue: removing a queue
 * clears it in the same statement set), but the ids it held before queues existed pointed at
 * nothing and are cleared, so they cannot land in the first queues created.
 */
export class M0007Queues extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table queue_integrations (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(100) not null,
      type varchar(20) not null check (type in ('webhook', 'n8n', 'typebot', 'dialogflow')),
      url varchar(2048) not null,
      token varchar(1024),
      secret varchar(1024),
      config jsonb not null default '{}',
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index queue_integrations_company_id_lower_name_idx on queue_integrations (company_id, lower(name))');

    this.addSql(`create table queues (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(100) not null,
      color varchar(7) not null check (color ~ '^#[0-9a-f]{6}$'),
      greeting_message text,
      out_of_hours_message text,
      schedules jsonb not null default '[]',
      order_queue int not null default 0,
      integration_id int references queue_integrations(id) on delete set null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index queues_company_id_lower_name_idx on queues (company_id, lower(name))');
    this.addSql('create index queues_integration_id_idx on queues (integration_id)');

    this.addSql(`create table queue_users (
      queue_id int not null references queues(id) on delete cascade,
      user_id int not null references users(id) on delete cascade,
      primary key (queue_id, user_id)
    )`);
    this.addSql('create index queue_users_user_id_idx on queue_users (user_id)');

    this.addSql(`create table connection_queues (
      connection_id int not null references connections(id) on delete cascade,
      queue_id int not null references queues(id) on delete cascade,
      primary key (connection_id, queue_id)
    )`);
    this.addSql('create index connection_queues_queue_id_idx on connection_queues (queue_id)');

    this.addSql(`create table queue_options (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      queue_id int not null references queues(id) on delete cascade,
      parent_id int references queue_options(id) on delete cascade,
      kind varchar(10) not null check (kind in ('option', 'chatbot')),
      title varchar(120) not null,
      message text,
      option_key varchar(20) not null,
      forward_queue_id int references queues(id) on delete set null,
      forward_user_id int references users(id) on delete set null,
      close_ticket boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index queue_options_sibling_key_idx on queue_options (queue_id, coalesce(parent_id, 0), lower(option_key))');
    this.addSql('create index queue_options_parent_id_idx on queue_options (parent_id)');
    this.addSql('create index queue_options_forward_queue_id_idx on queue_options (forward_queue_id)');
    this.addSql('create index queue_options_forward_user_id_idx on queue_options (forward_user_id)');

    this.addSql('update tickets set queue_id = null where queue_id is not null');
    this.addSql(`alter table tickets
      add column queue_option_id int references queue_options(id) on delete set null,
      add column bot_attempts int not null default 0,
      add column bot_active boolean not null default false`);
    this.addSql('create index tickets_company_id_queue_id_idx on tickets (company_id, queue_id) where queue_id is not null');
    this.addSql('create index tickets_queue_option_id_idx on tickets (queue_option_id) where queue_option_id is not null');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists tickets_company_id_queue_id_idx');
    this.addSql('alter table tickets drop column if exists queue_option_id, drop column if exists bot_attempts, drop column if exists bot_active');
    for (const t of ['queue_options', 'connection_queues', 'queue_users', 'queues', 'queue_integrations']) this.addSql(`drop table if exists ${t}`);
  }
}
