import { EntitySchema } from '@mikro-orm/core';
import type { TicketLog } from '@servicedesk/core';

export const TicketLogSchema = new EntitySchema<TicketLog>({
  name: 'TicketLog',
  tableName: 'ticket_logs',
  properties: {
    id: { type: 'number', primary: true, autoincrement: true },
    companyId: { type: 'number' },
    ticketId: { type: 'number' },
    userId: { type: 'number', nullable: true },
    type: { type: 'string' },
    payload: { type: 'json' },
    createdAt: { type: 'Date' },
  },
});
