import { Migration } from '@mikro-orm/migrations';

/**
 * Company templates and the contact sellers' history, one release. A template's shortcut (folded)
 * is unique per company; `user_id` is its creator, the owner of a personal one (`is_global`
 * false); its file is a public blob. `contact_wallet_assignments` records each change of a contact's
 * owner (`contacts.wallet_user_id`, its responsible seller): the user ids are kept as written, without
 * foreign keys, so the history outlives a deleted user.
 */
export class M0030TemplatesSellers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table company_templates (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      shortcut varchar(50) not null,
      message text not null,
      category varchar(60),
      is_global boolean not null default false,
      user_id int references users(id) on delete set null,
      media_key varchar(500),
      media_name varchar(255),
      media_type varchar(255),
      media_size int,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint company_templates_company_shortcut_unique unique (company_id, shortcut)
    )`);
    this.addSql('create index company_templates_company_user_idx on company_templates (company_id, user_id)');
    this.addSql(`create table contact_wallet_assignments (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      contact_id int not null references contacts(id) on delete cascade,
      user_id int,
      previous_user_id int,
      assigned_by int not null,
      assigned_at timestamptz not null
    )`);
    this.addSql('create index contact_wallet_assignments_contact_idx on contact_wallet_assignments (contact_id, assigned_at, id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists contact_wallet_assignments');
    this.addSql('drop table if exists company_templates');
  }
}
