import { EntitySchema } from '@mikro-orm/core';
import type { Flow, FlowVersion } from '@servicedesk/core/flows/flow';
import type { FlowRun, FlowRunStep } from '@servicedesk/core/flows/flow-runs';
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

const runs = foreignKeysOf('flow_runs');

/** As m0032 creates `flow_runs`: the engine's state as jsonb; one running or waiting run per ticket. */
export const FlowRunSchema = new EntitySchema<FlowRun>({
  name: 'FlowRun',
  tableName: 'flow_runs',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: runs('company_id', 'Company', 'cascade'),
    flowId: runs('flow_id', 'Flow', 'cascade'),
    version: { type: 'number' },
    ticketId: runs('ticket_id', 'Ticket', 'cascade'),
    contactId: runs('contact_id', 'Contact', 'cascade'),
    connectionId: runs('connection_id', 'Connection', 'cascade'),
    state: { type: 'json' },
    status: { type: 'string', length: 20 },
    waitingUntil: { type: 'Date', nullable: true },
    trigger: { type: 'string', length: 20, fieldName: 'trigger_type' },
    lastMessageId: { type: 'string', length: 64, nullable: true },
    seq: { type: 'number', default: 0 },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    endedAt: { type: 'Date', nullable: true },
  },
  uniques: [
    {
      name: 'flow_runs_active_ticket_idx',
      expression: `create unique index flow_runs_active_ticket_idx on flow_runs (ticket_id) where status in ('running', 'waiting')`,
    },
  ],
  indexes: [{ name: 'flow_runs_company_flow_idx', properties: ['companyId', 'flowId'] }],
});

const steps = foreignKeysOf('flow_run_steps');

/** As m0032 creates `flow_run_steps`: the audit of each run's steps, keyed by run and `seq`. */
export const FlowRunStepSchema = new EntitySchema<FlowRunStep>({
  name: 'FlowRunStep',
  tableName: 'flow_run_steps',
  properties: {
    runId: steps('run_id', 'FlowRun', 'cascade', { primary: true }),
    seq: { type: 'number', primary: true },
    companyId: steps('company_id', 'Company', 'cascade'),
    nodeId: { type: 'string', length: 64, nullable: true },
    input: { type: 'string', length: 100 },
    actions: { type: 'json' },
    at: { type: 'Date' },
  },
  indexes: [{ name: 'flow_run_steps_company_id_idx', properties: ['companyId'] }],
});

/** The tables of the flows feature. */
export const FLOW_SCHEMAS = [FlowSchema, FlowVersionSchema, FlowRunSchema, FlowRunStepSchema];
