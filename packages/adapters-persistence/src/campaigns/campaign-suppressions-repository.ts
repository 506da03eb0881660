import type { Suppressions } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';
import { IN_JSON } from './campaign-rows.js';

/** `campaign_suppressions`: one row per (company, number); the first entry stays. */
export class MikroOrmCampaignSuppressions extends MikroOrmRepository implements Suppressions {
  async suppressed(companyId: number, numbers: readonly string[]) {
    if (!numbers.length) return new Set<string>();
    const rows = await this.em.execute<Array<{ number: string }>>(`select number from campaign_suppressions where company_id = ? and number in (${IN_JSON})`, [
      companyId,
      JSON.stringify(numbers),
    ]);
    return new Set(rows.map((r) => r.number));
  }

  async add(entry: { companyId: number; number: string; reason: string; campaignId: number | null; createdAt: Date }) {
    await this.em.execute(
      `insert into campaign_suppressions (company_id, number, reason, campaign_id, created_at) values (?, ?, ?, ?, ?)
       on conflict (company_id, number) do nothing`,
      [entry.companyId, entry.number, entry.reason, entry.campaignId, entry.createdAt],
    );
  }
}
