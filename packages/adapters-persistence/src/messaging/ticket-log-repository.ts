import type { NewTicketLog, TicketLog, TicketLogs } from '@servicedesk/core';
import { TicketLogSchema } from './ticket-log-schema.js';
import { MikroOrmRepository } from '../shared/context.js';

export class MikroOrmTicketLogs extends MikroOrmRepository implements TicketLogs {
  async add(log: NewTicketLog): Promise<TicketLog> {
    const id = (await this.em.insert(TicketLogSchema, { ...log } as TicketLog)) as number;
    return { ...log, id };
  }
  async listByTicket(companyId: number, ticketId: number) {
    return this.em.find(TicketLogSchema, { companyId, ticketId }, { disableIdentityMap: true, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
  }
}
