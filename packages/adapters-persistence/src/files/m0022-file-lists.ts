import { Migration } from '@mikro-orm/migrations';

/**
 * File lists: a company's named bundles of files that queues, chatbot options and flows send.
 * A name is unique per company. Each option is a caption with, once uploaded, its file: a
 * private blob (`blob_key`), the original file name, the type recognised from its bytes and the
 * size; `position` orders the options of a list.
 */
export class M0022FileLists extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table file_lists (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(255) not null,
      message text not null default '',
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint file_lists_company_name_unique unique (company_id, name)
    )`);
    this.addSql(`create table file_list_options (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      file_list_id int not null references file_lists(id) on delete cascade,
      name varchar(255) not null default '',
      position int not null default 0,
      file_name varchar(255),
      media_type varchar(255),
      blob_key varchar(500),
      size int,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index file_list_options_list_position_idx on file_list_options (file_list_id, position)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists file_list_options');
    this.addSql('drop table if exists file_lists');
  }
}
