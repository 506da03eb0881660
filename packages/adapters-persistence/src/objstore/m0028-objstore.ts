import { Migration } from '@mikro-orm/migrations';

/**
 * Companies' own object stores: S3-compatible buckets with their key pair (the secret sealed by the
 * server's SecretCipher, never in clear), at most one active per company; and, for each blob put in
 * one of them, which config holds it, so it is found there whatever the company's active config
 * becomes (a config holding blobs cannot be deleted).
 */
export class M0028Objstore extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table objstore_configs (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(100) not null,
      provider varchar(10) not null check (provider in ('s3', 'minio', 'r2', 'wasabi', 'spaces', 'other')),
      endpoint varchar(500) not null,
      region varchar(50) not null,
      bucket varchar(63) not null,
      prefix varchar(200) not null default '',
      force_path_style boolean not null default false,
      public_base_url varchar(500),
      access_key_id varchar(128) not null,
      secret_sealed text not null,
      secret_hint varchar(4),
      active boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index objstore_configs_company_id_idx on objstore_configs (company_id)');
    this.addSql('create unique index objstore_configs_one_active_idx on objstore_configs (company_id) where active');
    this.addSql(`create table blob_locations (
      blob_key varchar(1024) primary key,
      company_id int not null references companies(id) on delete cascade,
      config_id int not null references objstore_configs(id),
      size bigint not null,
      created_at timestamptz not null
    )`);
    this.addSql('create index blob_locations_company_config_idx on blob_locations (company_id, config_id)');
    this.addSql('create index blob_locations_config_id_idx on blob_locations (config_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists blob_locations');
    this.addSql('drop table if exists objstore_configs');
  }
}
