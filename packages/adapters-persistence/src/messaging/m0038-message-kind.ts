import { Migration } from '@mikro-orm/migrations';

/**
 * A location or contact cards a contact shared: the message's body holds them in the lineage's
 * shape, and `kind` says which (`location`, `contact`), so that its `mediaType` reads
 * `locationMessage` or `contactMessage`; null for a text or a file.
 */
export class M0038MessageKind extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table messages add column if not exists kind varchar(10)');
  }

  override async down(): Promise<void> {
    this.addSql('alter table messages drop column if exists kind');
  }
}
