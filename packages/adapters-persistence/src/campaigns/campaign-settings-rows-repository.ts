import type { CampaignSettingRow, CampaignSettingsStore, StoredCampaignSetting } from '@servicedesk/core';
import { MikroOrmRepository } from '../shared/context.js';
import { time, type Row } from './campaign-rows.js';

function toStoredSetting(r: Row): StoredCampaignSetting {
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    key: String(r.key),
    value: String(r.value),
    createdAt: time(r.created_at),
    updatedAt: time(r.updated_at),
  };
}

/** `campaign_settings`: the company's key/value rows (the time zone comes from the company settings). */
export class MikroOrmCampaignSettingsRows extends MikroOrmRepository implements Pick<CampaignSettingsStore, 'rows' | 'save'> {
  async rows(companyId: number): Promise<CampaignSettingRow[]> {
    const rows = await this.em.execute<Row[]>('select key, value from campaign_settings where company_id = ? order by id', [companyId]);
    return rows.map((r) => ({ key: String(r.key), value: String(r.value) }));
  }

  /** One upsert for every row (the last of a repeated key wins), then every row of the company. */
  async save(companyId: number, rows: readonly CampaignSettingRow[]): Promise<StoredCampaignSetting[]> {
    const latest = [...new Map(rows.map((r) => [r.key, r.value])).entries()].map(([key, value]) => ({ key, value }));
    if (latest.length) {
      const now = new Date();
      await this.em.execute(
        `insert into campaign_settings (company_id, key, value, created_at, updated_at)
         select ?, key, value, ?, ? from jsonb_to_recordset(cast(? as jsonb)) as r(key text, value text)
         on conflict (company_id, key) do update set value = excluded.value, updated_at = excluded.updated_at`,
        [companyId, now, now, JSON.stringify(latest)],
      );
    }
    const stored = await this.em.execute<Row[]>(
      'select id, company_id, key, value, created_at, updated_at from campaign_settings where company_id = ? order by id',
      [companyId],
    );
    return stored.map(toStoredSetting);
  }
}
