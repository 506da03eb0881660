import { Migration } from '@mikro-orm/migrations';

/**
 * Schedules and what their runs keep. `schedules` holds both kinds (`contact`: one contact, the
 * lineage's Schedule; `bulk`: named, to chosen contacts and tags, its ScheduledMessages), the
 * recurrence and where the series is anchored, and the progress the runs write (status, next or
 * last moment, sends). `schedule_occurrences` is one row per moment of a series, unique per
 * (schedule, sequence), with at most one open (`pending` or `sending`) per schedule (a partial
 * unique index) and an index on the open ones by moment for the safety net. `schedule_deliveries`
 * are each occurrence's recipients, unique per (occurrence, contact); their contact, message and
 * ticket are plain ids (the record outlives a deleted contact or message).
 */
export class M0017Schedules extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table schedules (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      kind varchar(10) not null check (kind in ('contact', 'bulk')),
      name varchar(255),
      body text not null,
      contact_id int references contacts(id) on delete cascade,
      contact_ids jsonb not null default '[]',
      tag_ids jsonb not null default '[]',
      connection_id int references connections(id) on delete set null,
      user_id int references users(id) on delete set null,
      ticket_user_id int references users(id) on delete set null,
      queue_id int references queues(id) on delete set null,
      open_ticket boolean not null default false,
      status_ticket varchar(10) not null default 'closed' check (status_ticket in ('open', 'pending', 'closed')),
      sign boolean not null default false,
      sign_user_id int references users(id) on delete set null,
      media_path varchar(500),
      media_name varchar(255),
      media_content_type varchar(255),
      media_size int,
      frequency varchar(12) not null default 'none' check (frequency in ('none', 'days', 'weeks', 'months', 'minutes', 'businessDays')),
      every int not null default 0,
      repeat_count int not null default 1,
      repeat_until timestamptz,
      weekend varchar(6) not null default 'any' check (weekend in ('any', 'before', 'after')),
      anchor_at timestamptz not null,
      anchor_sequence int not null default 1,
      series_start int not null default 1,
      send_at timestamptz not null,
      status varchar(10) not null default 'PENDENTE' check (status in ('PENDENTE', 'ENVIADA', 'ERRO', 'PERDIDA')),
      sent_at timestamptz,
      sent_count int not null default 0,
      last_error text,
      ticket_id int references tickets(id) on delete set null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index schedules_company_id_kind_created_at_idx on schedules (company_id, kind, created_at)');
    this.addSql('create index schedules_contact_id_idx on schedules (contact_id)');

    this.addSql(`create table schedule_occurrences (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      schedule_id int not null references schedules(id) on delete cascade,
      sequence int not null,
      due_at timestamptz not null,
      status varchar(10) not null check (status in ('pending', 'sending', 'sent', 'failed', 'missed')),
      step int not null default 0,
      recipients int not null default 0,
      sent int not null default 0,
      failed int not null default 0,
      failure_reason text,
      settled_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint schedule_occurrences_schedule_id_sequence_key unique (schedule_id, sequence)
    )`);
    this.addSql(`create unique index schedule_occurrences_open_idx on schedule_occurrences (schedule_id) where status in ('pending', 'sending')`);
    this.addSql(`create index schedule_occurrences_open_due_idx on schedule_occurrences (due_at, id) where status in ('pending', 'sending')`);

    this.addSql(`create table schedule_deliveries (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      occurrence_id int not null references schedule_occurrences(id) on delete cascade,
      contact_id int not null,
      status varchar(10) not null default 'pending' check (status in ('pending', 'sent', 'failed')),
      message_id varchar(200),
      ticket_id int,
      failure_reason text,
      sent_at timestamptz,
      constraint schedule_deliveries_occurrence_id_contact_id_key unique (occurrence_id, contact_id)
    )`);
  }

  override async down(): Promise<void> {
    for (const t of ['schedule_deliveries', 'schedule_occurrences', 'schedules']) this.addSql(`drop table if exists ${t}`);
  }
}
