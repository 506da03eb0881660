import { Migration } from '@mikro-orm/migrations';

/**
 * A page or Instagram account id selects the connection Meta's deliveries go to, so it is unique
 * across the platform (every company): the partial index on social connections becomes unique.
 * A database where two social connections already share an id stops here with their ids, for an
 * operator to remove the one that should not have it (which one is legitimate is not ours to guess).
 */
export class M0011UniquePageIds extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$
      declare dup text;
      begin
        select string_agg(format('%s (connections %s)', external_id, ids), '; ') into dup from (
          select external_id, string_agg(id::text, ', ' order by id) as ids from connections
          where kind = 'socialnet' and external_id is not null group by external_id having count(*) > 1
        ) d;
        if dup is not null then
          raise exception 'm0011: social connections share a page id, remove all but one of each: %', dup;
        end if;
      end $$`);
    this.addSql('drop index if exists connections_external_id_idx');
    this.addSql(`create unique index connections_external_id_key on connections (external_id) where kind = 'socialnet'`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists connections_external_id_key');
    this.addSql(`create index connections_external_id_idx on connections (external_id) where kind = 'socialnet'`);
  }
}
