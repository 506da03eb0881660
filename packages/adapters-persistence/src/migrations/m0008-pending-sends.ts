import { Migration } from '@mikro-orm/migrations';

/** Sends still waiting for a channel runtime, oldest first: what the deadline sweep reads. */
export class M0008PendingSends extends Migration {
  override async up(): Promise<void> {
    this.addSql("create index messages_pending_created_idx on messages (created_at) where status = 'pending'");
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists messages_pending_created_idx');
  }
}
