import { Migration } from '@mikro-orm/migrations';

/**
 * The channel component's own schema `channel`, apart from the backend's tables in `public`:
 * its administrators and the Baileys session state of each connection.
 */
export class M0001ChannelFoundation extends Migration {
  override async up(): Promise<void> {
    this.addSql('create schema if not exists channel');
    this.addSql(`create table channel.admins (
      id serial primary key,
      email varchar(254) not null unique,
      password_hash text not null,
      must_change_password boolean not null default false,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create table channel.auth_state (
      connection_id int not null,
      key varchar(300) not null,
      value jsonb not null,
      updated_at timestamptz not null default now(),
      primary key (connection_id, key)
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists channel.auth_state');
    this.addSql('drop table if exists channel.admins');
  }
}
