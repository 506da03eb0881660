import { Migration } from '@mikro-orm/migrations';

/**
 * Refresh sessions remember the token id rotated away last and when (`previous_jti`, `rotated_at`):
 * for a short grace it yields the same new pair instead of counting as a replay. Sessions are
 * revoked by company when it is deactivated, hence the index.
 */
export class M0010RefreshGrace extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table refresh_sessions add column previous_jti uuid, add column rotated_at timestamptz');
    this.addSql('create index refresh_sessions_company_id_idx on refresh_sessions (company_id)');
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists refresh_sessions_company_id_idx');
    this.addSql('alter table refresh_sessions drop column if exists previous_jti, drop column if exists rotated_at');
  }
}
