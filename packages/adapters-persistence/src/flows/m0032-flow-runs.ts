import { Migration } from '@mikro-orm/migrations';

/**
 * Flow runs: a published flow's run on one ticket, its engine state as jsonb, kept on the version
 * it started on; at most one running or waiting run per ticket (a partial unique index); `seq`
 * counts the steps and is the compare-and-set every step's save goes through; `last_message_id`
 * the inbound message last fed to it. Each step is audited in `flow_run_steps`.
 */
export class M0032FlowRuns extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table flow_runs (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      flow_id int not null references flows(id) on delete cascade,
      version int not null,
      ticket_id int not null references tickets(id) on delete cascade,
      contact_id int not null references contacts(id) on delete cascade,
      connection_id int not null references connections(id) on delete cascade,
      state jsonb not null,
      status varchar(20) not null,
      waiting_until timestamptz,
      trigger_type varchar(20) not null,
      last_message_id varchar(64),
      seq int not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      ended_at timestamptz
    )`);
    this.addSql(`create unique index flow_runs_active_ticket_idx on flow_runs (ticket_id) where status in ('running', 'waiting')`);
    this.addSql('create index flow_runs_company_flow_idx on flow_runs (company_id, flow_id)');
    this.addSql(`create table flow_run_steps (
      run_id int not null references flow_runs(id) on delete cascade,
      seq int not null,
      company_id int not null references companies(id) on delete cascade,
      node_id varchar(64),
      input varchar(100) not null,
      actions jsonb not null,
      at timestamptz not null,
      primary key (run_id, seq)
    )`);
    this.addSql('create index flow_run_steps_company_id_idx on flow_run_steps (company_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists flow_run_steps');
    this.addSql('drop table if exists flow_runs');
  }
}
