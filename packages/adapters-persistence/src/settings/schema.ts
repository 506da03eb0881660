import { EntitySchema } from '@mikro-orm/core';
import { foreignKeysOf } from '../shared/columns.js';

export interface CompanySettingRow {
  companyId: number;
  key: string;
  value: string;
  updatedAt: Date;
}
export interface GlobalSettingRow {
  key: string;
  value: string;
  updatedAt: Date;
}

const companySettings = foreignKeysOf('company_settings');

/** As m0001 creates `company_settings`. */
export const CompanySettingSchema = new EntitySchema<CompanySettingRow>({
  name: 'CompanySetting',
  tableName: 'company_settings',
  properties: {
    companyId: companySettings('company_id', 'Company', 'cascade', { primary: true }),
    key: { type: 'string', length: 60, primary: true },
    value: { type: 'string', columnType: 'text' },
    updatedAt: { type: 'Date' },
  },
});

/** As m0001 creates `global_settings`. */
export const GlobalSettingSchema = new EntitySchema<GlobalSettingRow>({
  name: 'GlobalSetting',
  tableName: 'global_settings',
  properties: {
    key: { type: 'string', length: 60, primary: true },
    value: { type: 'string', columnType: 'text' },
    updatedAt: { type: 'Date' },
  },
});
