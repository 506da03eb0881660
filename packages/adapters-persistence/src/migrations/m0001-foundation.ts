import { Migration } from '@mikro-orm/migrations';

/** Tenancy, identity and settings: the tables every later feature hangs from. */
export class M0001Foundation extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table plans (
      id serial primary key,
      name varchar(80) not null unique,
      users int not null,
      connections int not null,
      queues int not null,
      amount numeric(12,2) not null default 0,
      recurrence varchar(20) not null default 'MENSAL',
      trial boolean not null default false,
      trial_days int not null default 0,
      is_public boolean not null default true,
      features jsonb not null default '{}',
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create table companies (
      id serial primary key,
      name varchar(120) not null,
      email varchar(254),
      phone varchar(40),
      document varchar(20),
      status boolean not null default true,
      plan_id int not null references plans(id),
      due_date date,
      recurrence varchar(20) not null default 'MENSAL',
      payment_method varchar(40),
      schedules jsonb not null default '[]',
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index companies_plan_id_idx on companies (plan_id)');
    this.addSql('create index companies_email_idx on companies (email)');
    this.addSql(`create table users (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(120) not null,
      email varchar(254) not null unique,
      password_hash text not null,
      profile varchar(10) not null check (profile in ('user', 'admin', 'super')),
      token_version int not null default 0,
      must_change_password boolean not null default false,
      online boolean not null default false,
      profile_image text,
      all_ticket varchar(10) not null default 'disable',
      default_tickets_manager_width int not null default 550,
      default_theme varchar(10) not null default 'light',
      default_menu varchar(10) not null default 'open',
      start_work varchar(5),
      end_work varchar(5),
      farewell_message text,
      last_login_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index users_company_id_name_idx on users (company_id, name)');
    this.addSql(`create table refresh_sessions (
      id uuid primary key,
      user_id int not null references users(id) on delete cascade,
      company_id int not null references companies(id) on delete cascade,
      current_jti uuid not null,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      created_at timestamptz not null
    )`);
    this.addSql('create index refresh_sessions_user_id_idx on refresh_sessions (user_id)');
    this.addSql(`create table company_settings (
      company_id int not null references companies(id) on delete cascade,
      key varchar(60) not null,
      value text not null,
      updated_at timestamptz not null,
      primary key (company_id, key)
    )`);
    this.addSql(`create table global_settings (
      key varchar(60) primary key,
      value text not null,
      updated_at timestamptz not null
    )`);
  }

  override async down(): Promise<void> {
    for (const t of ['global_settings', 'company_settings', 'refresh_sessions', 'users', 'companies', 'plans']) {
      this.addSql(`drop table if exists ${t}`);
    }
  }
}
