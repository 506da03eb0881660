import { EntitySchema } from '@mikro-orm/core';
import type { Queue, QueueIntegration, QueueOption } from '@servicedesk/core';

/** Queues only: `queue_users` and `connection_queues` are plain join tables written with SQL. */
export const QueueSchema = new EntitySchema<Queue>({
  name: 'Queue',
  tableName: 'queues',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    name: { type: 'string' },
    color: { type: 'string' },
    greetingMessage: { type: 'text', nullable: true },
    outOfHoursMessage: { type: 'text', nullable: true },
    schedules: { type: 'json' },
    orderQueue: { type: 'number' },
    integrationId: { type: 'number', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

export const QueueOptionSchema = new EntitySchema<QueueOption>({
  name: 'QueueOption',
  tableName: 'queue_options',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    queueId: { type: 'number' },
    parentId: { type: 'number', nullable: true },
    kind: { type: 'string' },
    title: { type: 'string' },
    message: { type: 'text', nullable: true },
    option: { type: 'string', fieldName: 'option_key' },
    forwardQueueId: { type: 'number', nullable: true },
    forwardUserId: { type: 'number', nullable: true },
    closeTicket: { type: 'boolean' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});

export const QueueIntegrationSchema = new EntitySchema<QueueIntegration>({
  name: 'QueueIntegration',
  tableName: 'queue_integrations',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    name: { type: 'string' },
    type: { type: 'string' },
    url: { type: 'string' },
    token: { type: 'string', nullable: true },
    secret: { type: 'string', nullable: true },
    config: { type: 'json' },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
});
