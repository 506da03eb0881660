import { Migration } from '@mikro-orm/migrations';

/**
 * Orders and how companies take them. `orders` carry a per-company `number` (unique per company,
 * handed out by `order_numbers`, one counter row per company) and their totals in minor units
 * (bigint), a `version` every write bumps, and their contact, ticket and creator as references that
 * become null when those are deleted (the order stays). `order_items` are the lines as priced when
 * ordered, with the stock each took (`reserved`); a deleted product leaves its lines. `order_logs`
 * record each change. `order_settings` is one default row per company (`connection_id` null, a
 * partial unique index) and at most one per connection. Runs after m0026, which creates `products`.
 */
export class M0027Orders extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table order_numbers (
      company_id int primary key references companies(id) on delete cascade,
      last_number int not null
    )`);
    this.addSql(`create table orders (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      number int not null,
      contact_id int references contacts(id) on delete set null,
      ticket_id int references tickets(id) on delete set null,
      user_id int references users(id) on delete set null,
      status varchar(10) not null check (status in ('new', 'confirmed', 'paid', 'shipped', 'delivered', 'cancelled')),
      currency varchar(3) not null,
      subtotal bigint not null check (subtotal >= 0),
      discount bigint not null default 0 check (discount >= 0),
      shipping_fee bigint not null default 0 check (shipping_fee >= 0),
      total bigint not null check (total >= 0),
      payment_method varchar(50),
      notes text not null default '',
      address varchar(1000),
      version int not null default 1,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint orders_company_id_number_key unique (company_id, number)
    )`);
    this.addSql('create index orders_company_id_status_idx on orders (company_id, status)');
    this.addSql('create index orders_company_id_created_at_idx on orders (company_id, created_at)');
    this.addSql('create index orders_contact_id_idx on orders (contact_id)');
    this.addSql('create index orders_ticket_id_idx on orders (ticket_id)');
    this.addSql('create index orders_user_id_idx on orders (user_id)');

    this.addSql(`create table order_items (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      order_id int not null references orders(id) on delete cascade,
      product_id int references products(id) on delete set null,
      name text not null,
      sku text,
      unit_price bigint not null check (unit_price >= 0),
      quantity int not null check (quantity >= 1),
      total bigint not null check (total >= 0),
      reserved int not null default 0 check (reserved >= 0),
      position int not null
    )`);
    this.addSql('create index order_items_order_id_idx on order_items (order_id)');
    this.addSql('create index order_items_product_id_idx on order_items (product_id)');

    this.addSql(`create table order_logs (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      order_id int not null references orders(id) on delete cascade,
      user_id int references users(id) on delete set null,
      type varchar(10) not null check (type in ('created', 'status', 'items', 'note')),
      from_value varchar(40),
      to_value varchar(40),
      data jsonb not null default '{}',
      created_at timestamptz not null
    )`);
    this.addSql('create index order_logs_order_id_idx on order_logs (order_id)');
    this.addSql('create index order_logs_user_id_idx on order_logs (user_id)');

    this.addSql(`create table order_settings (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      connection_id int references connections(id) on delete cascade,
      currency varchar(3) not null,
      payment_instructions text not null default '',
      status_messages jsonb not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint order_settings_connection_id_key unique (connection_id)
    )`);
    this.addSql('create unique index order_settings_default_idx on order_settings (company_id) where connection_id is null');
    this.addSql('create index order_settings_company_id_idx on order_settings (company_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists order_settings');
    this.addSql('drop table if exists order_logs');
    this.addSql('drop table if exists order_items');
    this.addSql('drop table if exists orders');
    this.addSql('drop table if exists order_numbers');
  }
}
