import { Migration } from '@mikro-orm/migrations';

/**
 * What the lineage's user form edits beyond m0001's columns: the user's default connection
 * (`chatapp_id`, cleared when that connection is removed) and the operator flags the frontend reads
 * to show or hide screens (history, every user's chats, closing pending tickets, dashboard,
 * real-time panel, connections page, groups).
 */
export class M0013UserFlags extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table users
      add column chatapp_id int references connections(id) on delete set null,
      add column all_historic varchar(10) not null default 'disabled',
      add column all_user_chat varchar(10) not null default 'disabled',
      add column user_close_pending_ticket varchar(10) not null default 'enabled',
      add column show_dashboard varchar(10) not null default 'disabled',
      add column allow_real_time varchar(10) not null default 'disabled',
      add column allow_connections varchar(10) not null default 'disabled',
      add column allow_group boolean not null default false`);
    this.addSql('create index users_chatapp_id_idx on users (chatapp_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists users_chatapp_id_idx');
    this.addSql(`alter table users drop column if exists chatapp_id, drop column if exists all_historic, drop column if exists all_user_chat,
      drop column if exists user_close_pending_ticket, drop column if exists show_dashboard, drop column if exists allow_real_time,
      drop column if exists allow_connections, drop column if exists allow_group`);
  }
}
