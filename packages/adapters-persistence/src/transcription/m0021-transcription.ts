import { Migration } from '@mikro-orm/migrations';

/**
 * Speech-to-text: each company's credentials for an OpenAI-compatible `/audio/transcriptions`
 * service (the API key sealed by the server's SecretCipher, never in clear; names unique per
 * company without regard to case; at most one default per company), and the background jobs that
 * transcribe long audio, with each message's outcome in `items` (`[{messageId, status, error}]`).
 * The transcripts themselves live on the messages (`m0021-message-transcription`).
 */
export class M0021Transcription extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table transcription_credentials (
      id serial primary key,
      company_id int not null references companies(id) on delete cascade,
      name varchar(100) not null,
      provider varchar(20) not null check (provider in ('openai', 'openai-compatible')),
      base_url varchar(500) not null,
      model varchar(100) not null,
      language varchar(2),
      api_key_sealed text,
      api_key_hint varchar(4),
      is_default boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql('create unique index transcription_credentials_name_key on transcription_credentials (company_id, lower(name))');
    this.addSql('create unique index transcription_credentials_default_key on transcription_credentials (company_id) where is_default');
    this.addSql(`create table transcription_jobs (
      id uuid primary key,
      company_id int not null references companies(id) on delete cascade,
      ticket_id int not null references tickets(id) on delete cascade,
      user_id int references users(id) on delete set null,
      credential_id int references transcription_credentials(id) on delete set null,
      language varchar(2),
      status varchar(10) not null check (status in ('queued', 'running', 'done', 'failed')),
      items jsonb not null default '[]',
      error varchar(100),
      created_at timestamptz not null,
      updated_at timestamptz not null,
      finished_at timestamptz
    )`);
    this.addSql(`create index transcription_jobs_active_idx on transcription_jobs (company_id, ticket_id) where status in ('queued', 'running')`);
    this.addSql('create index transcription_jobs_finished_at_idx on transcription_jobs (finished_at) where finished_at is not null');
    this.addSql('create index transcription_jobs_ticket_id_idx on transcription_jobs (ticket_id)');
    this.addSql('create index transcription_jobs_credential_id_idx on transcription_jobs (credential_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists transcription_jobs');
    this.addSql('drop table if exists transcription_credentials');
  }
}
