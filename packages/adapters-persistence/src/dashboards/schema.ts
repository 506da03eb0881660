import { EntitySchema } from '@mikro-orm/core';
import type { TicketCycle } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';

/*
 * The tables of m0020. The repositories read and write them with SQL (an `on conflict` on a
 * partial index, sums, row locks), so these describe the tables' shape: the schema drift test
 * compares them with the migration.
 */

const cycles = foreignKeysOf('ticket_cycles');

export const TicketCycleSchema = new EntitySchema<TicketCycle>({
  name: 'TicketCycle',
  tableName: 'ticket_cycles',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: cycles('company_id', 'Company', 'cascade'),
    ticketId: cycles('ticket_id', 'Ticket', 'cascade'),
    contactId: { type: 'number' },
    connectionId: { type: 'number' },
    queueId: { type: 'number', nullable: true },
    userId: { type: 'number', nullable: true },
    isGroup: { type: 'boolean', default: false },
    outbound: { type: 'boolean', default: false },
    reopened: { type: 'boolean', default: false },
    firstContact: { type: 'boolean', default: false },
    startedAt: { type: 'Date' },
    acceptedAt: { type: 'Date', nullable: true },
    firstResponseAt: { type: 'Date', nullable: true },
    closedAt: { type: 'Date', nullable: true },
    rating: { type: 'number', columnType: 'smallint', nullable: true },
    transfers: { type: 'number', default: 0 },
    updatedAt: { type: 'Date' },
  },
  checks: [{ name: 'ticket_cycles_rating_check', property: 'rating', expression: 'rating >= 1 and rating <= 5' }],
  uniques: [
    {
      // At most one open cycle per ticket: the writers' `on conflict` relies on it.
      name: 'ticket_cycles_one_open_idx',
      expression: 'create unique index ticket_cycles_one_open_idx on ticket_cycles (ticket_id) where closed_at is null',
    },
  ],
  indexes: [
    { name: 'ticket_cycles_company_id_started_at_idx', properties: ['companyId', 'startedAt'] },
    { name: 'ticket_cycles_company_id_updated_at_idx', properties: ['companyId', 'updatedAt'] },
    { name: 'ticket_cycles_company_id_contact_id_idx', properties: ['companyId', 'contactId'] },
    {
      name: 'ticket_cycles_open_started_at_idx',
      expression: 'create index ticket_cycles_open_started_at_idx on ticket_cycles (company_id, started_at) where closed_at is null',
    },
    { name: 'ticket_cycles_ticket_id_idx', properties: ['ticketId'] },
  ],
});

/** A row of `ticket_day_figures` as stored (0 for no queue or operator; durations in ms). */
export interface TicketDayFigureRow {
  companyId: number;
  day: string;
  queueId: number;
  userId: number;
  tickets: number;
  inbound: number;
  outbound: number;
  groups: number;
  leads: number;
  reopened: number;
  closed: number;
  unattendedClosed: number;
  transfers: number;
  waitCount: number;
  waitMs: number;
  handleCount: number;
  handleMs: number;
  firstResponseCount: number;
  firstResponseMs: number;
  resolutionCount: number;
  resolutionMs: number;
  rated: number;
  ratingSum: number;
  promoters: number;
  passives: number;
  detractors: number;
}

const figures = foreignKeysOf('ticket_day_figures');
const counter = { type: 'number', default: 0 } as const;
const duration = { type: 'bigint', default: 0 } as const;

export const TicketDayFigureSchema = new EntitySchema<TicketDayFigureRow>({
  name: 'TicketDayFigure',
  tableName: 'ticket_day_figures',
  properties: {
    companyId: figures('company_id', 'Company', 'cascade', { primary: true }),
    day: { type: 'date', primary: true },
    queueId: { type: 'number', primary: true, default: 0 },
    userId: { type: 'number', primary: true, default: 0 },
    tickets: counter,
    inbound: counter,
    outbound: counter,
    groups: counter,
    leads: counter,
    reopened: counter,
    closed: counter,
    unattendedClosed: counter,
    transfers: counter,
    waitCount: counter,
    waitMs: duration,
    handleCount: counter,
    handleMs: duration,
    firstResponseCount: counter,
    firstResponseMs: duration,
    resolutionCount: counter,
    resolutionMs: duration,
    rated: counter,
    ratingSum: counter,
    promoters: counter,
    passives: counter,
    detractors: counter,
  },
});

/** A row of `dashboard_refreshes`. */
export interface DashboardRefreshRow {
  companyId: number;
  timeZone: string;
  watermark: Date;
  refreshedAt: Date;
  rebuiltAt: Date;
}

const refreshes = foreignKeysOf('dashboard_refreshes');

export const DashboardRefreshSchema = new EntitySchema<DashboardRefreshRow>({
  name: 'DashboardRefresh',
  tableName: 'dashboard_refreshes',
  properties: {
    companyId: refreshes('company_id', 'Company', 'cascade', { primary: true }),
    timeZone: { type: 'string', length: 64 },
    watermark: { type: 'Date' },
    refreshedAt: { type: 'Date' },
    rebuiltAt: { type: 'Date' },
  },
});

export const DASHBOARD_SCHEMAS = [TicketCycleSchema, TicketDayFigureSchema, DashboardRefreshSchema];
