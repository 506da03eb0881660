import { Migration } from '@mikro-orm/migrations';

/**
 * Connections may use the business API's provider (`cloudapi`, bizchat connections). Part of the
 * released history rather than the bizchat feature's tables: the provider is a column of every
 * database's `connections`.
 */
export class M0034CloudapiProvider extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table connections drop constraint if exists connections_provider_check');
    this.addSql(
      `alter table connections add constraint connections_provider_check check (provider in ('sandbox', 'baileys', 'messenger', 'instagram', 'cloudapi'))`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('alter table connections drop constraint if exists connections_provider_check');
    this.addSql(`alter table connections add constraint connections_provider_check check (provider in ('sandbox', 'baileys', 'messenger', 'instagram'))`);
  }
}
