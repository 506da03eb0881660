import { Migration } from '@mikro-orm/migrations';

/**
 * Flows (the flow builder): per company a named flow (unique name), its triggers and its draft
 * graph as jsonb with the draft's version (optimistic concurrency for editors), and the number of
 * its latest published version; each published version an immutable row of its own, numbered per
 * flow, with who published it.
 */
export class M0029Flows extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table flows (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(100) not null,
      active boolean not null default false,
      triggers jsonb not null default '[]',
      draft jsonb not null,
      draft_version int not null default 1,
      published_version int,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint flows_company_name_unique unique (company_id, name)
    )`);
    this.addSql(`create table flow_versions (
      flow_id int not null references flows(id) on delete cascade,
      version int not null,
      company_id int not null references companies(id) on delete cascade,
      graph jsonb not null,
      published_by int references users(id) on delete set null,
      published_at timestamptz not null,
      primary key (flow_id, version)
    )`);
    this.addSql('create index flow_versions_company_id_idx on flow_versions (company_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists flow_versions');
    this.addSql('drop table if exists flows');
  }
}
