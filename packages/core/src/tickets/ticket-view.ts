import type { Ticket } from './ticket.js';

/** A ticket as JSON: dates as ISO strings, without the greeting bookkeeping. */
export interface TicketView extends Omit<Ticket, 'createdAt' | 'updatedAt' | 'closedAt' | 'greetedAt'> {
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export function toTicketView(t: Ticket): TicketView {
  const { greetedAt: _g, createdAt, updatedAt, closedAt, ...rest } = t;
  return { ...rest, createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString(), closedAt: closedAt ? closedAt.toISOString() : null };
}
