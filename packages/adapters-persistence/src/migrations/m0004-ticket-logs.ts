import { Migration } from '@mikro-orm/migrations';

/**
 * Ticket history and message edits. `ticket_logs.ticket_id` has no foreign key on purpose: the
 * `delete` entry of a ticket outlives it (the company's deletion still removes every entry).
 * Messages get the flags of an operator's edit and revoke.
 */
export class M0004TicketLogs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table ticket_logs (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      ticket_id int not null,
      user_id int references users(id) on delete set null,
      type varchar(20) not null check (type in ('create', 'accept', 'transfer', 'pending', 'close', 'reopen', 'ignore', 'lgpd', 'delete')),
      payload jsonb not null default '{}',
      created_at timestamptz not null
    )`);
    this.addSql('create index ticket_logs_company_id_ticket_id_created_at_idx on ticket_logs (company_id, ticket_id, created_at, id)');

    this.addSql('alter table messages add column is_deleted boolean not null default false');
    this.addSql('alter table messages add column is_edited boolean not null default false');
    this.addSql('alter table messages add column edited_at timestamptz');
    // `/messages-allMe`: an operator's own messages, newest first.
    this.addSql('create index messages_company_id_user_id_created_at_idx on messages (company_id, user_id, created_at desc)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists messages_company_id_user_id_created_at_idx');
    this.addSql('alter table messages drop column if exists is_deleted, drop column if exists is_edited, drop column if exists edited_at');
    this.addSql('drop table if exists ticket_logs');
  }
}
