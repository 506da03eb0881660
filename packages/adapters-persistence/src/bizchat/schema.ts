import { EntitySchema } from '@mikro-orm/core';
import type { BizchatTemplate } from '@servicedesk/core/bizchat/bizchat-template';
import { foreignKeysOf } from '../shared/columns.js';

const templates = foreignKeysOf('bizchat_templates');

/** As m0033 creates `bizchat_templates`: the provider's components and the parameter counts as jsonb. */
export const BizchatTemplateSchema = new EntitySchema<BizchatTemplate>({
  name: 'BizchatTemplate',
  tableName: 'bizchat_templates',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: templates('company_id', 'Company', 'cascade'),
    connectionId: templates('connection_id', 'Connection', 'cascade'),
    wabaId: { type: 'string', length: 128 },
    metaId: { type: 'string', length: 128 },
    name: { type: 'string', length: 512 },
    language: { type: 'string', length: 20 },
    status: { type: 'string', length: 30 },
    category: { type: 'string', length: 30 },
    parameterFormat: { type: 'string', length: 20 },
    components: { type: 'json' },
    parameters: { type: 'json' },
    syncedAt: { type: 'Date' },
  },
  uniques: [{ name: 'bizchat_templates_connection_name_language_unique', properties: ['connectionId', 'name', 'language'] }],
  indexes: [{ name: 'bizchat_templates_waba_id_idx', properties: ['wabaId'] }],
});

/** The tables of the bizchat feature. */
export const BIZCHAT_SCHEMAS = [BizchatTemplateSchema];
