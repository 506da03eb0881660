import { Migration } from '@mikro-orm/migrations';

/** What the sandbox "provider" delivered, one row per send key: proves exactly-once across restarts. */
export class M0002SandboxLedger extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table channel.sandbox_sent (
      chatapp_id int not null,
      idempotency_key varchar(200) not null,
      provider_message_id varchar(200) not null,
      recipient varchar(200) not null,
      body text not null,
      sent_at timestamptz not null default now(),
      primary key (chatapp_id, idempotency_key)
    )`);
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists channel.sandbox_sent');
  }
}
