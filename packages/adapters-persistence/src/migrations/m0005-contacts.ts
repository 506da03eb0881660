import { Migration } from '@mikro-orm/migrations';

/**
 * Contacts as operators manage them (blocking, audio, bot, owner, linked user, notes) and the
 * identifiers that reach a person. `contact_identifiers` holds one owner per (company, kind,
 * value): the phone identifier's value is the canonical number (a Brazilian mobile always with
 * its ninth digit), so racing inbound messages or imports with either form of one number cannot
 * create two contacts. Existing contacts' numbers become phone identifiers here; when two of them
 * are the two forms of one mobile, the older keeps the identifier and the other stays reachable
 * by its exact number.
 */
export class M0005Contacts extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table contacts add column blocked boolean not null default false');
    this.addSql('alter table contacts add column accept_audio boolean not null default true');
    this.addSql('alter table contacts add column disable_bot boolean not null default false');
    this.addSql('alter table contacts add column wallet_user_id int references users(id) on delete set null');
    this.addSql('alter table contacts add column linked_user_id int references users(id) on delete set null');
    this.addSql(`alter table contacts add column extra_info jsonb not null default '[]'`);
    this.addSql('create index contacts_wallet_user_id_idx on contacts (wallet_user_id)');
    // One contact per platform user within a company.
    this.addSql('create unique index contacts_linked_user_idx on contacts (company_id, linked_user_id) where linked_user_id is not null');

    this.addSql(`create table contact_identifiers (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      contact_id int not null references contacts(id) on delete cascade,
      kind varchar(10) not null check (kind in ('phone', 'lid', 'psid')),
      value varchar(100) not null,
      page_id varchar(200),
      created_at timestamptz not null,
      constraint contact_identifiers_unique unique (company_id, kind, value)
    )`);
    this.addSql('create index contact_identifiers_contact_id_idx on contact_identifiers (contact_id)');
    this.addSql('create index contact_identifiers_company_id_value_idx on contact_identifiers (company_id, value)');
    // The same canonical form as `canonicalPhone` in the core.
    this.addSql(`insert into contact_identifiers (company_id, contact_id, kind, value, created_at)
      select company_id, id, 'phone',
        case when number ~ '^55[1-9][1-9][6-9][0-9]{7}$' then substr(number, 1, 4) || '9' || substr(number, 5) else number end,
        created_at
      from contacts where not is_group order by id
      on conflict (company_id, kind, value) do nothing`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists contact_identifiers');
    this.addSql('drop index if exists contacts_linked_user_idx');
    this.addSql('drop index if exists contacts_wallet_user_id_idx');
    for (const c of ['blocked', 'accept_audio', 'disable_bot', 'wallet_user_id', 'linked_user_id', 'extra_info']) {
      this.addSql(`alter table contacts drop column if exists ${c}`);
    }
  }
}
