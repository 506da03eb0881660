import { EntitySchema } from '@mikro-orm/core';
import type { Queue, QueueIntegration, QueueOption } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';

const queues = foreignKeysOf('queues');

/** As m0007 creates `queues` (names unique per company ignoring case), with m0025's prompt (no foreign key). */
export const QueueSchema = new EntitySchema<Queue>({
  name: 'Queue',
  tableName: 'queues',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: queues('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 100 },
    color: { type: 'string', length: 7 },
    greetingMessage: { type: 'text', nullable: true },
    outOfHoursMessage: { type: 'text', nullable: true },
    schedules: { type: 'json', defaultRaw: `'[]'` },
    orderQueue: { type: 'number', default: 0 },
    integrationId: queues('integration_id', 'QueueIntegration', 'set null', { nullable: true }),
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
    promptId: { type: 'number', nullable: true },
  },
  checks: [{ name: 'queues_color_check', property: 'color', expression: `color ~ '^#[0-9a-f]{6}$'` }],
  uniques: [
    { name: 'queues_company_id_lower_name_idx', expression: 'create unique index queues_company_id_lower_name_idx on queues (company_id, lower(name))' },
  ],
  indexes: [
    { name: 'queues_integration_id_idx', properties: ['integrationId'] },
    { name: 'queues_prompt_id_idx', properties: ['promptId'] },
  ],
});

const queueOptions = foreignKeysOf('queue_options');

/** As m0007 creates `queue_options`: option keys unique among siblings ignoring case. */
export const QueueOptionSchema = new EntitySchema<QueueOption>({
  name: 'QueueOption',
  tableName: 'queue_options',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: queueOptions('company_id', 'Company', 'cascade'),
    queueId: queueOptions('queue_id', 'Queue', 'cascade'),
    parentId: queueOptions('parent_id', 'QueueOption', 'cascade', { nullable: true }),
    kind: { type: 'string', enum: true, items: ['option', 'chatbot'], columnType: 'varchar(10)' },
    title: { type: 'string', length: 120 },
    message: { type: 'text', nullable: true },
    option: { type: 'string', length: 20, fieldName: 'option_key' },
    forwardQueueId: queueOptions('forward_queue_id', 'Queue', 'set null', { nullable: true }),
    forwardUserId: queueOptions('forward_user_id', 'User', 'set null', { nullable: true }),
    closeTicket: { type: 'boolean', default: false },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [
    {
      name: 'queue_options_sibling_key_idx',
      expression: 'create unique index queue_options_sibling_key_idx on queue_options (queue_id, coalesce(parent_id, 0), lower(option_key))',
    },
  ],
  indexes: [
    { name: 'queue_options_parent_id_idx', properties: ['parentId'] },
    { name: 'queue_options_forward_queue_id_idx', properties: ['forwardQueueId'] },
    { name: 'queue_options_forward_user_id_idx', properties: ['forwardUserId'] },
  ],
});

const queueIntegrations = foreignKeysOf('queue_integrations');

/** As m0007 creates `queue_integrations`: names unique per company ignoring case. */
export const QueueIntegrationSchema = new EntitySchema<QueueIntegration>({
  name: 'QueueIntegration',
  tableName: 'queue_integrations',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: queueIntegrations('company_id', 'Company', 'cascade'),
    name: { type: 'string', length: 100 },
    type: { type: 'string', enum: true, items: ['webhook', 'n8n', 'typebot', 'dialogflow'], columnType: 'varchar(20)' },
    url: { type: 'string', length: 2048 },
    token: { type: 'string', length: 1024, nullable: true },
    secret: { type: 'string', length: 1024, nullable: true },
    config: { type: 'json', defaultRaw: `'{}'` },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [
    {
      name: 'queue_integrations_company_id_lower_name_idx',
      expression: 'create unique index queue_integrations_company_id_lower_name_idx on queue_integrations (company_id, lower(name))',
    },
  ],
});

/** A link of `queue_users` or `connection_queues`: plain join tables, read and written with SQL (see MikroOrmQueues). */
export interface QueueUserRow {
  queueId: number;
  userId: number;
}
export interface ConnectionQueueRow {
  connectionId: number;
  queueId: number;
}

const queueUsers = foreignKeysOf('queue_users');

/** As m0007 creates `queue_users`; described so that the schema drift test sees the whole table. */
export const QueueUserSchema = new EntitySchema<QueueUserRow>({
  name: 'QueueUser',
  tableName: 'queue_users',
  properties: {
    queueId: queueUsers('queue_id', 'Queue', 'cascade', { primary: true }),
    userId: queueUsers('user_id', 'User', 'cascade', { primary: true }),
  },
  indexes: [{ name: 'queue_users_user_id_idx', properties: ['userId'] }],
});

const connectionQueues = foreignKeysOf('connection_queues');

/** As m0007 creates `connection_queues`; described so that the schema drift test sees the whole table. */
export const ConnectionQueueSchema = new EntitySchema<ConnectionQueueRow>({
  name: 'ConnectionQueue',
  tableName: 'connection_queues',
  properties: {
    connectionId: connectionQueues('connection_id', 'Connection', 'cascade', { primary: true }),
    queueId: connectionQueues('queue_id', 'Queue', 'cascade', { primary: true }),
  },
  indexes: [{ name: 'connection_queues_queue_id_idx', properties: ['queueId'] }],
});
