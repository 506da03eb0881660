import { EntitySchema } from '@mikro-orm/core';
import type { TicketLog } from '@servicedesk/core';
import { foreignKeysOf } from '../shared/columns.js';

const ticketLogs = foreignKeysOf('ticket_logs');

/** As m0004 creates `ticket_logs`: `ticket_id` has no foreign key on purpose (a ticket's `delete` entry outlives it). */
export const TicketLogSchema = new EntitySchema<TicketLog>({
  name: 'TicketLog',
  tableName: 'ticket_logs',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: ticketLogs('company_id', 'Company', 'cascade'),
    ticketId: { type: 'number' },
    userId: ticketLogs('user_id', 'User', 'set null', { nullable: true }),
    type: {
      type: 'string',
      enum: true,
      columnType: 'varchar(20)',
      items: ['create', 'accept', 'transfer', 'pending', 'close', 'reopen', 'ignore', 'lgpd', 'delete'],
    },
    payload: { type: 'json', defaultRaw: `'{}'` },
    createdAt: { type: 'Date' },
  },
  indexes: [{ name: 'ticket_logs_company_id_ticket_id_created_at_idx', properties: ['companyId', 'ticketId', 'createdAt', 'id'] }],
});
