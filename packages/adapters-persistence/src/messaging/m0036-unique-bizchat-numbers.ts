import { Migration } from '@mikro-orm/migrations';

/**
 * A phone-number id selects the bizchat connection the business API's deliveries go to, so it is
 * unique across the platform (every company), as page ids are (m0011). A database where two bizchat
 * connections already share a number stops here, naming each number with the companies and
 * connections holding it, for an operator to remove the ones that should not have it (which one is
 * legitimate is not ours to guess: the oldest may be the squatter).
 */
export class M0036UniqueBizchatNumbers extends Migration {
  override async up(): Promise<void> {
    this.addSql(`do $$
      declare dup text;
      begin
        select string_agg(format('%s (%s)', external_id, holders), '; ' order by external_id) into dup from (
          select external_id, string_agg(format('company %s connection %s', company_id, id), ', ' order by id) as holders from connections
          where kind = 'bizchat' and external_id is not null group by external_id having count(*) > 1
        ) d;
        if dup is not null then
          raise exception 'm0036: bizchat connections share a phone-number id, remove all but one of each: %', dup;
        end if;
      end $$`);
    this.addSql(`create unique index connections_bizchat_number_key on connections (external_id) where kind = 'bizchat'`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists connections_bizchat_number_key');
  }
}
