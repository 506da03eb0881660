import { Migration } from '@mikro-orm/migrations';

/**
 * A proxy saved without a check (`skipCheck`) is `unchecked` until the health job checks it, rather
 * than `healthy` when nothing was checked. Existing rows keep their status.
 */
export class M0035ProxyUnchecked extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table proxies drop constraint if exists proxies_status_check');
    this.addSql(`alter table proxies add constraint proxies_status_check check (status in ('healthy', 'unchecked', 'degraded', 'failing', 'disabled'))`);
  }

  override async down(): Promise<void> {
    this.addSql(`update proxies set status = 'healthy' where status = 'unchecked'`);
    this.addSql('alter table proxies drop constraint if exists proxies_status_check');
    this.addSql(`alter table proxies add constraint proxies_status_check check (status in ('healthy', 'degraded', 'failing', 'disabled'))`);
  }
}
