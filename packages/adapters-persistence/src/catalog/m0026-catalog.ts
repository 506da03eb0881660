import { Migration } from '@mikro-orm/migrations';

/**
 * The catalog: categories (nested one level under `parent_id`; a name unique among siblings ignoring
 * case; a deleted parent's children move to the top), products (prices and stock as whole numbers that
 * never go below zero; a SKU unique per company; a category still holding products cannot be deleted:
 * the foreign key has no action), their images (public blobs, removed with the product) and
 * spreadsheet imports (one queued or processing per company, enforced by a partial unique index).
 */
export class M0026Catalog extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table categories (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      parent_id int references categories(id) on delete set null,
      name varchar(100) not null,
      description text not null default '',
      position int not null default 0,
      active boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index categories_sibling_name_idx on categories (company_id, coalesce(parent_id, 0), lower(name))');
    this.addSql('create index categories_parent_id_idx on categories (parent_id)');
    this.addSql(`create table products (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      category_id int references categories(id),
      name varchar(200) not null,
      description text not null default '',
      sku varchar(64),
      price int not null check (price >= 0),
      currency varchar(3) not null default 'BRL',
      stock int not null default 0 check (stock >= 0),
      track_stock boolean not null default false,
      active boolean not null default true,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint products_company_sku_unique unique (company_id, sku)
    )`);
    this.addSql('create index products_category_id_idx on products (category_id)');
    this.addSql(`create table product_images (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      product_id int not null references products(id) on delete cascade,
      blob_key varchar(500) not null,
      url varchar(1000) not null,
      content_type varchar(100) not null,
      size int not null,
      position int not null default 0,
      created_at timestamptz not null
    )`);
    this.addSql('create index product_images_product_position_idx on product_images (product_id, position)');
    this.addSql(`create table product_imports (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      user_id int references users(id) on delete set null,
      status varchar(10) not null check (status in ('queued', 'processing', 'completed', 'failed')),
      mode varchar(10) not null check (mode in ('create', 'upsert')),
      file_name varchar(255) not null,
      total int not null default 0,
      processed int not null default 0,
      created int not null default 0,
      updated int not null default 0,
      skipped int not null default 0,
      failed int not null default 0,
      errors jsonb not null default '[]',
      error varchar(500),
      created_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz
    )`);
    this.addSql(`create unique index product_imports_open_idx on product_imports (company_id) where status in ('queued', 'processing')`);
    this.addSql('create index product_imports_company_id_idx on product_imports (company_id, id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists product_imports');
    this.addSql('drop table if exists product_images');
    this.addSql('drop table if exists products');
    this.addSql('drop table if exists categories');
  }
}
