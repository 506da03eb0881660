import { Migration } from '@mikro-orm/migrations';

/**
 * Pending password resets ("Forgot your password?"): at most one per user (the key), holding the
 * digest of the e-mailed token (never the token), unique so that a token finds its row, and when
 * it expires. A row goes with its user.
 */
export class M0039PasswordResets extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table password_resets (
      user_id int primary key references users(id) on delete cascade,
      token_digest varchar(128) not null,
      expires_at timestamptz not null,
      created_at timestamptz not null,
      constraint password_resets_token_digest_key unique (token_digest)
    )`);
    this.addSql('create index password_resets_expires_at_idx on password_resets (expires_at)');
  }

  override async down(): Promise<void> {
    this.addSql('drop table if exists password_resets');
  }
}
