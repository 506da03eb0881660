import { Migration } from '@mikro-orm/migrations';

/**
 * Bizchat connections (provider `cloudapi`, allowed by m0034) get a stored copy of their business
 * account's templates: one row per connection, name and language, refreshed from the provider and
 * updated by its template status webhooks (found by `waba_id`).
 */
export class M0033BizchatTemplates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table bizchat_templates (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      connection_id int not null references connections(id) on delete cascade,
      waba_id varchar(128) not null,
      meta_id varchar(128) not null,
      name varchar(512) not null,
      language varchar(20) not null,
      status varchar(30) not null,
      category varchar(30) not null,
      parameter_format varchar(20) not null,
      components jsonb not null,
      parameters jsonb not null,
      synced_at timestamptz not null,
      constraint bizchat_templates_connection_name_language_unique unique (connection_id, name, language)
    )`);
    this.addSql('create index bizchat_templates_waba_id_idx on bizchat_templates (waba_id)');
  }
}
