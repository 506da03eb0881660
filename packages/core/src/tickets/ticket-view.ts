import type { Ticket } from './ticket.js';

/**
 * A ticket as JSON: dates as ISO strings, without the greeting bookkeeping, and with the
 * connection under the lineage's name (the naming rule): `chatappId`.
 */
export interface TicketView extends Omit<Ticket, 'createdAt' | 'updatedAt' | 'closedAt' | 'greetedAt' | 'connectionId'> {
  /** The connection (channel) the conversation runs on. */
  chatappId: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
}

export function toTicketView(t: Ticket): TicketView {
  const { greetedAt: _g, connectionId, createdAt, updatedAt, closedAt, ...rest } = t;
  return {
    ...rest,
    chatappId: connectionId,
    createdAt: createdAt.toISOString(),
    updatedAt: updatedAt.toISOString(),
    closedAt: closedAt ? closedAt.toISOString() : null,
  };
}
