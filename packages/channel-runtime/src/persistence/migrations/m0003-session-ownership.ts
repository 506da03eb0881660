import { Migration } from '@mikro-orm/migrations';

/**
 * Which sessions should run (the latest control command of each connection) and which runtime
 * instance holds each one (a lease that lapses unless renewed): shared by every instance.
 */
export class M0003SessionOwnership extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table channel.session_desired (
      chatapp_id int primary key,
      company_id int not null,
      running boolean not null,
      generation int not null,
      command jsonb not null,
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create table channel.session_leases (
      chatapp_id int primary key,
      owner varchar(200) not null,
      expires_at timestamptz not null
    )`);
    this.addSql('create index session_leases_owner_idx on channel.session_leases (owner)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists channel.session_leases');
    this.addSql('drop table if exists channel.session_desired');
  }
}
