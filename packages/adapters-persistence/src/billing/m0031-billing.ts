import { Migration } from '@mikro-orm/migrations';

/**
 * Billing: the Pix charges issued for invoices (one gateway id once), the gateway events received
 * (unique per gateway and event id, so a redelivered event is recorded once), the companies suspended
 * for an overdue invoice, and whether each gateway's notifications are taken.
 */
export class M0031Billing extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table billing_charges (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      invoice_id int not null references invoices(id) on delete cascade,
      provider varchar(30) not null,
      gateway_charge_id varchar(100) not null,
      status varchar(10) not null check (status in ('pending', 'paid', 'cancelled', 'expired', 'refunded')),
      amount numeric(12,2) not null,
      copy_paste text not null,
      qr_code_png text not null,
      expires_at timestamptz not null,
      paid_at timestamptz,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      constraint billing_charges_provider_gateway_charge_id_key unique (provider, gateway_charge_id)
    )`);
    this.addSql('create index billing_charges_invoice_idx on billing_charges (company_id, invoice_id)');
    this.addSql(`create table payment_events (
      id serial primary key,
      provider varchar(30) not null,
      event_id varchar(200) not null,
      charge_id varchar(100) not null,
      received_at timestamptz not null,
      constraint payment_events_provider_event_id_key unique (provider, event_id)
    )`);
    this.addSql(`create table company_suspensions (
      company_id int primary key references companies(id) on delete cascade,
      suspended_at timestamptz not null,
      due_date date not null
    )`);
    this.addSql(`create table billing_webhooks (
      provider varchar(30) primary key,
      url varchar(500) not null,
      enabled boolean not null,
      verified_at timestamptz,
      updated_at timestamptz not null
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists billing_webhooks');
    this.addSql('drop table if exists company_suspensions');
    this.addSql('drop table if exists payment_events');
    this.addSql('drop table if exists billing_charges');
  }
}
