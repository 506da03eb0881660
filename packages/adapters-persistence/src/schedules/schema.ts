import { EntitySchema } from '@mikro-orm/core';
import { FREQUENCIES, WEEKEND_RULES } from '@servicedesk/core/schedules/recurrence';
import { DELIVERY_STATUSES, OCCURRENCE_STATUSES, SCHEDULE_KINDS, SCHEDULE_STATUSES, TICKET_STATUSES } from '@servicedesk/core/schedules/schedule';
import { foreignKeysOf } from '../shared/columns.js';

/*
 * The schedule tables as m0017 creates them. The repositories read and write them with SQL
 * (conditional updates, batches), so these rows are the tables' shape, not the domain's: the
 * schema drift test compares them with the migration.
 */

export interface ScheduleRow {
  id: number;
  companyId: number;
  kind: string;
  name: string | null;
  body: string;
  contactId: number | null;
  contactIds: number[];
  tagIds: number[];
  connectionId: number | null;
  userId: number | null;
  ticketUserId: number | null;
  queueId: number | null;
  openTicket: boolean;
  statusTicket: string;
  sign: boolean;
  signUserId: number | null;
  mediaPath: string | null;
  mediaName: string | null;
  mediaContentType: string | null;
  mediaSize: number | null;
  frequency: string;
  every: number;
  repeatCount: number;
  repeatUntil: Date | null;
  weekend: string;
  anchorAt: Date;
  anchorSequence: number;
  seriesStart: number;
  sendAt: Date;
  status: string;
  sentAt: Date | null;
  sentCount: number;
  lastError: string | null;
  ticketId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

const schedules = foreignKeysOf('schedules');

export const ScheduleSchema = new EntitySchema<ScheduleRow>({
  name: 'Schedule',
  tableName: 'schedules',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: schedules('company_id', 'Company', 'cascade'),
    kind: { type: 'string', enum: true, items: [...SCHEDULE_KINDS], columnType: 'varchar(10)' },
    name: { type: 'string', length: 255, nullable: true },
    body: { type: 'text' },
    contactId: schedules('contact_id', 'Contact', 'cascade', { nullable: true }),
    contactIds: { type: 'json', defaultRaw: `'[]'` },
    tagIds: { type: 'json', defaultRaw: `'[]'` },
    connectionId: schedules('connection_id', 'Connection', 'set null', { nullable: true }),
    userId: schedules('user_id', 'User', 'set null', { nullable: true }),
    ticketUserId: schedules('ticket_user_id', 'User', 'set null', { nullable: true }),
    queueId: schedules('queue_id', 'Queue', 'set null', { nullable: true }),
    openTicket: { type: 'boolean', default: false },
    statusTicket: { type: 'string', enum: true, items: [...TICKET_STATUSES], columnType: 'varchar(10)', default: 'closed' },
    sign: { type: 'boolean', default: false },
    signUserId: schedules('sign_user_id', 'User', 'set null', { nullable: true }),
    mediaPath: { type: 'string', length: 500, nullable: true },
    mediaName: { type: 'string', length: 255, nullable: true },
    mediaContentType: { type: 'string', length: 255, nullable: true },
    mediaSize: { type: 'number', nullable: true },
    frequency: { type: 'string', enum: true, items: [...FREQUENCIES], columnType: 'varchar(12)', default: 'none' },
    every: { type: 'number', default: 0 },
    repeatCount: { type: 'number', default: 1 },
    repeatUntil: { type: 'Date', nullable: true },
    weekend: { type: 'string', enum: true, items: [...WEEKEND_RULES], columnType: 'varchar(6)', default: 'any' },
    anchorAt: { type: 'Date' },
    anchorSequence: { type: 'number', default: 1 },
    seriesStart: { type: 'number', default: 1 },
    sendAt: { type: 'Date' },
    status: { type: 'string', enum: true, items: [...SCHEDULE_STATUSES], columnType: 'varchar(10)', default: 'PENDENTE' },
    sentAt: { type: 'Date', nullable: true },
    sentCount: { type: 'number', default: 0 },
    lastError: { type: 'text', nullable: true },
    ticketId: schedules('ticket_id', 'Ticket', 'set null', { nullable: true }),
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  indexes: [
    { name: 'schedules_company_id_kind_created_at_idx', properties: ['companyId', 'kind', 'createdAt'] },
    { name: 'schedules_contact_id_idx', properties: ['contactId'] },
  ],
});

export interface ScheduleOccurrenceRow {
  id: number;
  companyId: number;
  scheduleId: number;
  sequence: number;
  dueAt: Date;
  status: string;
  step: number;
  recipients: number;
  sent: number;
  failed: number;
  failureReason: string | null;
  settledAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const occurrences = foreignKeysOf('schedule_occurrences');

export const ScheduleOccurrenceSchema = new EntitySchema<ScheduleOccurrenceRow>({
  name: 'ScheduleOccurrence',
  tableName: 'schedule_occurrences',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: occurrences('company_id', 'Company', 'cascade'),
    scheduleId: occurrences('schedule_id', 'Schedule', 'cascade'),
    sequence: { type: 'number' },
    dueAt: { type: 'Date' },
    status: { type: 'string', enum: true, items: [...OCCURRENCE_STATUSES], columnType: 'varchar(10)' },
    step: { type: 'number', default: 0 },
    recipients: { type: 'number', default: 0 },
    sent: { type: 'number', default: 0 },
    failed: { type: 'number', default: 0 },
    failureReason: { type: 'text', nullable: true },
    settledAt: { type: 'Date', nullable: true },
    createdAt: { type: 'Date' },
    updatedAt: { type: 'Date' },
  },
  uniques: [
    { name: 'schedule_occurrences_schedule_id_sequence_key', properties: ['scheduleId', 'sequence'] },
    {
      name: 'schedule_occurrences_open_idx',
      expression: `create unique index schedule_occurrences_open_idx on schedule_occurrences (schedule_id) where status in ('pending', 'sending')`,
    },
  ],
  indexes: [
    {
      name: 'schedule_occurrences_open_due_idx',
      expression: `create index schedule_occurrences_open_due_idx on schedule_occurrences (due_at, id) where status in ('pending', 'sending')`,
    },
  ],
});

export interface ScheduleDeliveryRow {
  id: number;
  companyId: number;
  occurrenceId: number;
  contactId: number;
  status: string;
  messageId: string | null;
  ticketId: number | null;
  failureReason: string | null;
  sentAt: Date | null;
}

const deliveries = foreignKeysOf('schedule_deliveries');

export const ScheduleDeliverySchema = new EntitySchema<ScheduleDeliveryRow>({
  name: 'ScheduleDelivery',
  tableName: 'schedule_deliveries',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: deliveries('company_id', 'Company', 'cascade'),
    occurrenceId: deliveries('occurrence_id', 'ScheduleOccurrence', 'cascade'),
    contactId: { type: 'number' },
    status: { type: 'string', enum: true, items: [...DELIVERY_STATUSES], columnType: 'varchar(10)', default: 'pending' },
    messageId: { type: 'string', length: 200, nullable: true },
    ticketId: { type: 'number', nullable: true },
    failureReason: { type: 'text', nullable: true },
    sentAt: { type: 'Date', nullable: true },
  },
  uniques: [{ name: 'schedule_deliveries_occurrence_id_contact_id_key', properties: ['occurrenceId', 'contactId'] }],
});

/** The entity schemas of m0017. */
export const SCHEDULE_SCHEMAS = [ScheduleSchema, ScheduleOccurrenceSchema, ScheduleDeliverySchema];
