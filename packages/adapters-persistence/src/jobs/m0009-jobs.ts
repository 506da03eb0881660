import { Migration } from '@mikro-orm/migrations';

/**
 * Background jobs, claimed by runners with FOR UPDATE SKIP LOCKED and a lease (`locked_by`,
 * `locked_until`) timed by the database's clock. `claims` counts the claims of a row: with
 * `locked_by` it fences completion, so a runner whose lease lapsed cannot complete a later claim.
 * A recurring job is one row per name (`every_ms` set); a key allows one pending job per name.
 */
export class M0009Jobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table jobs (
      id bigint generated always as identity primary key,
      name varchar(200) not null,
      key varchar(200),
      payload jsonb not null default 'null',
      every_ms bigint check (every_ms > 0),
      state varchar(10) not null default 'pending' check (state in ('pending', 'failed')),
      run_at timestamptz not null,
      attempts int not null default 0,
      claims int not null default 0,
      locked_by varchar(200),
      locked_until timestamptz,
      last_error text,
      created_at timestamptz not null default clock_timestamp(),
      updated_at timestamptz not null default clock_timestamp(),
      check (every_ms is null or key is null)
    )`);
    this.addSql("create index jobs_due_idx on jobs (run_at, id) where state = 'pending'");
    this.addSql('create unique index jobs_recurring_name_idx on jobs (name) where every_ms is not null');
    this.addSql("create unique index jobs_pending_key_idx on jobs (name, key) where state = 'pending' and key is not null");
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists jobs');
  }
}
