import type { Settings } from '@servicedesk/core';
import { CompanySettingSchema, GlobalSettingSchema } from './schema.js';
import { MikroOrmRepository } from '../shared/context.js';

const READ = { disableIdentityMap: true } as const;

export class MikroOrmSettings extends MikroOrmRepository implements Settings {
  async get(companyId: number | null, key: string) {
    const row =
      companyId === null ? await this.em.findOne(GlobalSettingSchema, { key }, READ) : await this.em.findOne(CompanySettingSchema, { companyId, key }, READ);
    return row?.value ?? null;
  }
  async all(companyId: number | null) {
    const rows = companyId === null ? await this.em.find(GlobalSettingSchema, {}, READ) : await this.em.find(CompanySettingSchema, { companyId }, READ);
    return new Map(rows.map((r) => [r.key, r.value]));
  }
  async put(companyId: number | null, key: string, value: string, at: Date) {
    if (companyId === null) {
      await this.em.execute(
        'insert into global_settings (key, value, updated_at) values (?, ?, ?) on conflict (key) do update set value = excluded.value, updated_at = excluded.updated_at',
        [key, value, at],
      );
    } else {
      await this.em.execute(
        'insert into company_settings (company_id, key, value, updated_at) values (?, ?, ?, ?) on conflict (company_id, key) do update set value = excluded.value, updated_at = excluded.updated_at',
        [companyId, key, value, at],
      );
    }
  }
}
