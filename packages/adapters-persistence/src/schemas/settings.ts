import { EntitySchema } from '@mikro-orm/core';

export interface CompanySettingRow { companyId: number; key: string; value: string; updatedAt: Date; }
export interface GlobalSettingRow { key: string; value: string; updatedAt: Date; }

export const CompanySettingSchema = new EntitySchema<CompanySettingRow>({
  name: 'CompanySetting',
  tableName: 'company_settings',
  properties: {
    companyId: { type: 'number', primary: true },
    key: { type: 'string', primary: true },
    value: { type: 'string', columnType: 'text' },
    updatedAt: { type: 'Date' },
  },
});

export const GlobalSettingSchema = new EntitySchema<GlobalSettingRow>({
  name: 'GlobalSetting',
  tableName: 'global_settings',
  properties: {
    key: { type: 'string', primary: true },
    value: { type: 'string', columnType: 'text' },
    updatedAt: { type: 'Date' },
  },
});
