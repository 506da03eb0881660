import { EntitySchema } from '@mikro-orm/core';
import type { Flow, FlowVersion } from '@servicedesk/core/flows/flow';
import { foreignKeysOf } from '../shared/columns.js';

const flows = foreignKeysOf('flows');

/** As m0029 creates `flows`: the draft graph and the triggers are jsonb. */
export const FlowSchema = new EntitySchema<Flow>({
  name: 'Flow',
  tableName: 'flows',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: flows('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 100 },
    active: { type: 'boolean', default: false },
    triggers: { type: 'json', defaultRaw: `'[]'` },
    draft: { type: 'json' },
    draftVersion: { type: 'number', default: 1 },
    publishedVersion: { type: 'number', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [{ name: 'flows_company_name_unique', properties: ['companyId', 'name'] }],
});

const versions = foreignKeysOf('flow_versions');

/** As m0029 creates `flow_versions`: one immutable row per published version, keyed by flow and number. */
export const FlowVersionSchema = new EntitySchema<FlowVersion>({
  name: 'FlowVersion',
  tableName: 'flow_versions',
  properties: {
    flowId: versions('flow_id', 'Flow', 'cascade', { primary: true }),
    version: { type: 'number', primary: true },
    companyId: versions('company_id', 'Company', 'cascade'),
    graph: { type: 'json' },
    publishedBy: versions('published_by', 'User', 'set null', { nullable: true }),
    publishedAt: { type: 'Date' },
  },
  indexes: [{ name: 'flow_versions_company_id_idx', properties: ['companyId'] }],
});

/** The tables of the flows feature. */
export const FLOW_SCHEMAS = [FlowSchema, FlowVersionSchema];
