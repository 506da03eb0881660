import { Migration } from '@mikro-orm/migrations';

/**
 * Platform announcements: written by super users (`company_id` is the author's company), read by
 * every company they target, which is every company when `all_companies` is set (those created
 * later too) and else the companies linked in `announcement_companies`. A link goes with its
 * company. `starts_at`/`ends_at` bound when it is shown (either end open); the attachment is a
 * blob key with its original name and sniffed type.
 */
export class M0018Announcements extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table announcements (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      priority smallint not null default 3 check (priority >= 1 and priority <= 3),
      title varchar(255) not null,
      text text not null default '',
      media_key varchar(500),
      media_name varchar(255),
      media_type varchar(100),
      status boolean not null default true,
      all_companies boolean not null default true,
      starts_at timestamptz,
      ends_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint announcements_window_check check (starts_at is null or ends_at is null or ends_at > starts_at)
    )`);
    this.addSql('create index announcements_company_id_idx on announcements (company_id)');
    this.addSql(`create table announcement_companies (
      announcement_id int not null references announcements(id) on delete cascade,
      company_id int not null references companies(id) on delete cascade,
      primary key (announcement_id, company_id)
    )`);
    this.addSql('create index announcement_companies_company_id_idx on announcement_companies (company_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists announcement_companies');
    this.addSql('drop table if exists announcements');
  }
}
