import { Migration } from '@mikro-orm/migrations';

/**
 * Contact lists: named snapshots of numbers a campaign sends to, independent of the CRM contacts.
 * An item's number is kept as given and in its canonical form (unique per list, the form
 * campaigns deduplicate by); `validity` is the number check's verdict (`error`: the check could
 * not run, e.g. the session was down, which is not `invalid`); `variables` holds the spreadsheet's
 * extra columns. `contact_list_imports` follows a background spreadsheet import.
 */
export class M0014ContactLists extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table contact_lists (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(255) not null,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index contact_lists_company_id_name_idx on contact_lists (company_id, name)');
    this.addSql(`create table contact_list_items (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      contact_list_id int not null references contact_lists(id) on delete cascade,
      name varchar(255) not null,
      number varchar(64) not null,
      canonical_number varchar(64) not null,
      email varchar(255) not null default '',
      is_group boolean not null default false,
      validity varchar(10) not null default 'unknown' check (validity in ('unknown', 'valid', 'invalid', 'error')),
      validated_at timestamptz,
      validation_error varchar(500),
      variables jsonb not null default '{}',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint contact_list_items_list_number_unique unique (contact_list_id, canonical_number)
    )`);
    this.addSql('create index contact_list_items_company_id_list_name_idx on contact_list_items (company_id, contact_list_id, name)');
    this.addSql('create index contact_list_items_list_validity_idx on contact_list_items (contact_list_id, validity)');
    this.addSql(`create table contact_list_imports (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      contact_list_id int not null references contact_lists(id) on delete cascade,
      user_id int references users(id) on delete set null,
      status varchar(10) not null check (status in ('pending', 'running', 'done', 'failed')),
      file_name varchar(255) not null,
      blob_key varchar(500),
      total int not null default 0,
      processed int not null default 0,
      created int not null default 0,
      duplicates int not null default 0,
      invalid int not null default 0,
      error varchar(500),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index contact_list_imports_list_idx on contact_list_imports (contact_list_id, id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists contact_list_imports');
    this.addSql('drop table if exists contact_list_items');
    this.addSql('drop table if exists contact_lists');
  }
}
