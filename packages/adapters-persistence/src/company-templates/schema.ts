import { EntitySchema } from '@mikro-orm/core';
import type { CompanyTemplate } from '@servicedesk/core/company-templates/company-template';
import { foreignKeysOf } from '../shared/columns.js';

const templates = foreignKeysOf('company_templates');

/** As m0030 creates `company_templates`. */
export const CompanyTemplateSchema = new EntitySchema<CompanyTemplate>({
  name: 'CompanyTemplate',
  tableName: 'company_templates',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: templates('company_id', 'Company', 'cascade'),
    shortcut: { type: 'string', length: 50 },
    message: { type: 'text' },
    category: { type: 'string', length: 60, nullable: true },
    global: { type: 'boolean', fieldName: 'is_global', default: false },
    userId: templates('user_id', 'User', 'set null', { nullable: true }),
    mediaKey: { type: 'string', length: 500, nullable: true },
    mediaName: { type: 'string', length: 255, nullable: true },
    mediaType: { type: 'string', length: 255, nullable: true },
    mediaSize: { type: 'number', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [{ name: 'company_templates_company_shortcut_unique', properties: ['companyId', 'shortcut'] }],
  indexes: [{ name: 'company_templates_company_user_idx', properties: ['companyId', 'userId'] }],
});

/** The tables of the company templates feature. */
export const COMPANY_TEMPLATE_SCHEMAS = [CompanyTemplateSchema];
