import { Migration } from '@mikro-orm/migrations';

/**
 * Tags and their links to tickets and contacts. Names are unique per company ignoring case (the
 * index decides a race between two creations). A link goes when either side is deleted.
 */
export class M0006Tags extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table tags (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(60) not null,
      color varchar(7) not null check (color ~ '^#[0-9a-f]{6}$'),
      kanban boolean not null default false,
      lane_order int not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index tags_company_id_lower_name_idx on tags (company_id, lower(name))');
    this.addSql('create index tags_company_id_lane_order_idx on tags (company_id, lane_order) where kanban');

    this.addSql(`create table ticket_tags (
      ticket_id int not null references tickets(id) on delete cascade,
      tag_id int not null references tags(id) on delete cascade,
      primary key (ticket_id, tag_id)
    )`);
    this.addSql('create index ticket_tags_tag_id_idx on ticket_tags (tag_id)');

    this.addSql(`create table contact_tags (
      contact_id int not null references contacts(id) on delete cascade,
      tag_id int not null references tags(id) on delete cascade,
      primary key (contact_id, tag_id)
    )`);
    this.addSql('create index contact_tags_tag_id_idx on contact_tags (tag_id)');
  }

  override async down(): Promise<void> {
    for (const t of ['contact_tags', 'ticket_tags', 'tags']) this.addSql(`drop table if exists ${t}`);
  }
}
