import { Migration } from '@mikro-orm/migrations';

/**
 * The company integration API: platform-wide helps and partners, per-company invoices, and the
 * minimal contacts and messages tables its counts read (the conversation features extend them).
 */
export class M0002CompanyApi extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table helps (
      id serial primary key,
      title varchar(200) not null,
      description text not null default '',
      video varchar(500),
      link varchar(500),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create table partners (
      id serial primary key,
      name varchar(120) not null,
      email varchar(254),
      phone varchar(40),
      document varchar(20),
      commission numeric(12,2) not null default 0,
      type_commission varchar(10) not null default 'percent' check (type_commission in ('percent', 'fixed')),
      wallet_id varchar(120),
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create table invoices (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      detail varchar(500) not null,
      status varchar(10) not null default 'open' check (status in ('open', 'paid', 'cancelled')),
      value numeric(12,2) not null,
      due_date date not null,
      paid_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index invoices_company_id_id_idx on invoices (company_id, id)');
    this.addSql(`create table contacts (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(200) not null,
      number varchar(60) not null,
      email varchar(254),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (company_id, number)
    )`);
    this.addSql(`create table messages (
      id bigserial primary key,
      company_id int not null references companies(id) on delete cascade,
      contact_id int references contacts(id) on delete set null,
      body text not null default '',
      from_me boolean not null default false,
      created_at timestamptz not null
    )`);
    this.addSql('create index messages_company_id_created_at_idx on messages (company_id, created_at)');
  }

  override async down(): Promise<void> {
    for (const t of ['messages', 'contacts', 'invoices', 'partners', 'helps']) this.addSql(`drop table if exists ${t}`);
  }
}
