import { Migration } from '@mikro-orm/migrations';

/**
 * AI assistants (prompts): instructions for an OpenAI-compatible chat model, the model (from the
 * server's allow-list), the API key sealed by the server's SecretCipher (never in clear), the queue a
 * conversation is handed to (set null when that queue is deleted) and the tokens used so far; and
 * the record of each inbound message an assistant answered, handed over or skipped.
 */
export class M0023Prompts extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table prompts (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(100) not null,
      prompt text not null,
      queue_id int references queues(id) on delete set null,
      provider varchar(20) not null check (provider in ('openai', 'openai-compatible')),
      base_url varchar(500) not null,
      model varchar(100) not null,
      api_key_sealed text,
      api_key_hint varchar(4),
      max_messages int not null,
      max_tokens int not null,
      temperature double precision not null,
      voice varchar(60) not null,
      prompt_tokens bigint not null default 0,
      completion_tokens bigint not null default 0,
      total_tokens bigint not null default 0,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create index prompts_company_id_idx on prompts (company_id)');
    this.addSql('create index prompts_queue_id_idx on prompts (queue_id)');
    // One row per inbound message an assistant dealt with: the key that makes a redelivered command a no-op.
    this.addSql(`create table prompt_answers (
      message_id uuid primary key,
      company_id int not null references companies(id) on delete cascade,
      ticket_id int not null references tickets(id) on delete cascade,
      prompt_id int not null,
      outcome varchar(20) not null check (outcome in ('answered', 'handed-over', 'skipped')),
      reason varchar(60),
      at timestamptz not null
    )`);
    this.addSql('create index prompt_answers_ticket_idx on prompt_answers (company_id, ticket_id, at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists prompt_answers');
    this.addSql('drop table if exists prompts');
  }
}
