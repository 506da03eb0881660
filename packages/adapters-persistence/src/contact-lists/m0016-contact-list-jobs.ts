import { Migration } from '@mikro-orm/migrations';

/**
 * What the contact lists' background work needs beyond m0014: an import's report of refused rows
 * (`errors`, the first 1,000 `{row, reason}`), and an index on the items the number check has
 * still to look at, by company then age, so that its pass never scans the checked ones.
 */
export class M0016ContactListJobs extends Migration {
  override async up(): Promise<void> {
    this.addSql(`alter table contact_list_imports add column errors jsonb not null default '[]'`);
    this.addSql(`create index contact_list_items_to_check_idx on contact_list_items (company_id, id) where validity in ('unknown', 'error')`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists contact_list_items_to_check_idx');
    this.addSql('alter table contact_list_imports drop column if exists errors');
  }
}
