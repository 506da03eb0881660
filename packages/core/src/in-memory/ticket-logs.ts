import type { TicketLogs } from '../tickets/ports.js';
import type { NewTicketLog, TicketLog } from '../tickets/ticket-log.js';
import { InMemoryTable } from './table.js';

export class InMemoryTicketLogs implements TicketLogs {
  readonly table = new InMemoryTable<TicketLog>();
  async add(log: NewTicketLog) {
    return this.table.insert(log);
  }
  async listByTicket(companyId: number, ticketId: number) {
    return this.table
      .filter((l) => l.companyId === companyId && l.ticketId === ticketId)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id);
  }
}
