import { Migration } from '@mikro-orm/migrations';

/**
 * Durable sends and retries. `idempotency_keys`: the message API's keys, written in the
 * transaction of the send they answer for (so they survive any crash exactly when the send does),
 * one per connection and key, removed by the `idempotency.expire-keys` job after 24 hours.
 * `outbox_handling`: entries handed to the in-process broker whose handling is not confirmed yet;
 * at start-up they are relayed again (that broker died with the process that held them).
 */
export class M0012IdempotencyKeys extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table idempotency_keys (
      connection_id int not null,
      key varchar(200) not null,
      company_id int not null,
      fingerprint varchar(64) not null,
      answer jsonb not null,
      created_at timestamptz not null,
      primary key (connection_id, key)
    )`);
    this.addSql('create index idempotency_keys_created_at_idx on idempotency_keys (created_at)');
    this.addSql(`create table outbox_handling (
      outbox_id uuid primary key,
      published_at timestamptz not null
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists outbox_handling');
    this.addSql('drop table if exists idempotency_keys');
  }
}
