import { Migration } from '@mikro-orm/migrations';

/**
 * The AI assistant (prompt) that answers a connection's or a queue's conversations; null: none. No
 * foreign key: the `prompts` table belongs to a feature a database may lack, so it is the use case
 * that refuses to delete a prompt still pointed to (`ERR_PROMPT_IN_USE`).
 */
export class M0025PromptLinks extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table connections add column prompt_id int');
    this.addSql('create index connections_prompt_id_idx on connections (prompt_id)');
    this.addSql('alter table queues add column prompt_id int');
    this.addSql('create index queues_prompt_id_idx on queues (prompt_id)');
  }

  override async down(): Promise<void> {
    this.addSql('alter table queues drop column if exists prompt_id');
    this.addSql('alter table connections drop column if exists prompt_id');
  }
}
